import { type Availability, formatTime } from '@marquee/protocol';
import { Alert, Card, Empty, Skeleton, Space, Statistic, Table, Tag, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallQuery } from '../../api/queries';
import { useDebounced } from '../market/useDebounced';
import { chartGranularity } from './orderLogic';

const AvailabilityChart = lazy(() => import('./AvailabilityChart'));

/** How long the choices must stay put before availability is asked for, ms. */
export const AVAILABILITY_DEBOUNCE_MS = 350;

export interface AvailabilityQuery {
  slotId: string;
  deviceIds: string[];
  startDate: string;
  endDate: string;
  hours: number[];
  excludeOrderId?: string;
}

type ScreenRow = Availability['screens']['data'][number];

/**
 * One line's availability (sales.availability, exact at the query's moment): booked, held and
 * available rotations per day (per hour for a period of at most 3 days) with the fill rate,
 * the totals, what the line can book at most (a conflict when below the rotations asked), and
 * the per-screen table (avail %, fewest rotations left, offline more than 72 hours).
 */
export function AvailabilityPanel({
  query,
  rotations,
  title,
}: {
  query: AvailabilityQuery | null;
  /** The rotations the line asks for (CPT), to show a conflict before submitting. */
  rotations: number | null;
  title?: string;
}) {
  const { t } = useTranslation('sales');
  const key = query ? JSON.stringify(query) : '';
  const settled = useDebounced(key, AVAILABILITY_DEBOUNCE_MS);
  // The screens' page, back to the first whenever the question changes.
  const [paged, setPaged] = useState({ for: '', page: 1 });
  const page = { page: paged.for === settled ? paged.page : 1, size: 10 };
  const q = settled ? (JSON.parse(settled) as AvailabilityQuery) : null;
  const granularity = q ? chartGranularity(q.startDate, q.endDate) : 'day';
  const avail = useCallQuery(
    'salesAvailability',
    q ? { ...q, granularity, page: page.page, size: page.size as 10 } : ({} as never),
    { enabled: Boolean(q), keepPrevious: true, retry: false },
  );
  const data = q ? avail.data : undefined;
  const conflict = data && rotations != null && data.bookable < rotations;

  return (
    <Card
      size="small"
      title={title ?? t('availability.title')}
      data-testid={`sales-availability-${query?.slotId ?? 'none'}`}
      extra={
        data ? (
          <Typography.Text type="secondary" data-testid="sales-availability-at">
            {t('availability.exactAt', { at: formatTime(data.computedAt) })}
          </Typography.Text>
        ) : null
      }
    >
      {!query ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('availability.choose')} />
      ) : !data ? (
        avail.isError ? (
          <Typography.Text type="danger">{t('availability.failed')}</Typography.Text>
        ) : (
          <Skeleton active paragraph={{ rows: 4 }} />
        )
      ) : (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          {conflict ? (
            <Alert
              type="error"
              showIcon
              data-testid="sales-availability-conflict"
              title={t('availability.conflict', { bookable: data.bookable, rotations })}
            />
          ) : null}
          <Space size={24} wrap>
            <Statistic title={t('availability.bookable')} value={data.bookable} suffix={`/ ${data.maxRotations}`} />
            <Statistic title={t('availability.availPct')} value={data.total.availPct} suffix="%" precision={1} />
            <Statistic title={t('availability.fillRate')} value={data.total.fillRate} suffix="%" precision={1} />
            <Statistic title={t('availability.booked')} value={data.total.booked} />
            <Statistic title={t('availability.held')} value={data.total.held} />
            <Statistic title={t('availability.available')} value={data.total.available} />
          </Space>
          <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: 240 }} />}>
            <AvailabilityChart series={data.series} granularity={granularity} />
          </Suspense>
          <Table<ScreenRow>
            rowKey="deviceId"
            size="small"
            data-testid="sales-availability-screens"
            dataSource={data.screens.data}
            loading={avail.isFetching}
            pagination={{
              current: page.page,
              pageSize: page.size,
              total: data.screens.total,
              size: 'small',
              showSizeChanger: false,
              onChange: (p) => setPaged({ for: settled, page: p }),
            }}
            columns={[
              {
                key: 'name',
                dataIndex: 'deviceName',
                title: t('availability.screen'),
                ellipsis: true,
                render: (v: string, row) => (
                  <span>
                    {v}{' '}
                    {row.longOffline ? (
                      <Tag color="error" data-testid={`sales-availability-offline-${row.deviceId}`}>
                        {t('availability.longOffline')}
                      </Tag>
                    ) : null}
                  </span>
                ),
              },
              {
                key: 'availPct',
                dataIndex: 'availPct',
                title: t('availability.availPct'),
                align: 'right',
                width: 90,
                render: (v: number) => `${v.toFixed(1)}%`,
              },
              {
                key: 'minAvailable',
                dataIndex: 'minAvailable',
                title: t('availability.minAvailable'),
                align: 'right',
                width: 110,
              },
              { key: 'booked', dataIndex: 'booked', title: t('availability.booked'), align: 'right', width: 80 },
              { key: 'held', dataIndex: 'held', title: t('availability.held'), align: 'right', width: 80 },
            ]}
          />
        </Space>
      )}
    </Card>
  );
}
