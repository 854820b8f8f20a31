import { EnvironmentOutlined } from '@ant-design/icons';
import type { RegionStat } from '@marquee/protocol';
import { Alert, Breadcrumb, Button, Card, Empty, Progress, Skeleton, Space, Statistic, Table } from 'antd';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallQuery } from '../../api/queries';
import './deviceMap.css';

const RegionChart = lazy(() => import('./RegionChart'));

const percent = (share: number) => Math.round(share * 1000) / 10;

/**
 * The device map by province, city and district (spec section 7's 'map by province/city/
 * district'): the caller's devices per region with their online share, as a table and a bar
 * chart; a region's name (or its bar) drills down, the breadcrumbs go back up. Devices
 * without a known region are counted apart. Self-contained, without a route: a page mounts
 * it (the device list's map view). `storeId` limits it to one store's devices.
 */
export function DeviceRegionMap({ storeId }: { storeId?: string }) {
  const { t, i18n } = useTranslation('geo');
  const [parentCode, setParentCode] = useState<string | undefined>(undefined);
  const stats = useCallQuery('deviceRegionStats', { parentCode, storeId });
  const number = useMemo(() => new Intl.NumberFormat(i18n.language), [i18n.language]);
  const data = stats.data;
  const drillable = data ? data.level !== 'district' : false;
  const drill = useCallback((code: string) => setParentCode(code), []);
  const labels = useMemo(() => ({ online: t('online'), offline: t('notOnline') }), [t]);

  const crumbs = [
    {
      key: 'all',
      title: data?.path.length ? (
        <Button type="link" size="small" onClick={() => setParentCode(undefined)} data-testid="region-crumb-all">
          {t('allRegions')}
        </Button>
      ) : (
        t('allRegions')
      ),
    },
    ...(data?.path ?? []).map((p, i, all) => ({
      key: p.code,
      title:
        i < all.length - 1 ? (
          <Button type="link" size="small" onClick={() => setParentCode(p.code)} data-testid={`region-crumb-${p.code}`}>
            {p.name}
          </Button>
        ) : (
          <span data-testid={`region-crumb-${p.code}`}>{p.name}</span>
        ),
    })),
  ];

  return (
    <Card
      size="small"
      className="mq-region-map"
      data-testid="device-region-map"
      title={
        <Space>
          <EnvironmentOutlined />
          {t('title')}
        </Space>
      }
    >
      <Breadcrumb items={crumbs} className="mq-region-crumbs" />
      {stats.isLoading ? <Skeleton active /> : null}
      {stats.isError ? (
        <Alert
          type="error"
          showIcon
          message={t('loadFailed')}
          action={
            <Button size="small" onClick={() => void stats.refetch()}>
              {t('retry')}
            </Button>
          }
        />
      ) : null}
      {data ? (
        <>
          <Space size={32} wrap className="mq-region-figures">
            <Statistic title={t('devices')} value={data.total} formatter={(v) => number.format(Number(v))} />
            <Statistic title={t('online')} value={data.online} formatter={(v) => number.format(Number(v))} />
            <Statistic
              title={t('onlineShare')}
              value={data.total > 0 ? percent(data.online / data.total) : 0}
              suffix="%"
            />
            {data.unlocated > 0 ? (
              <Statistic
                title={t('unlocated')}
                value={data.unlocated}
                formatter={(v) => <span data-testid="region-unlocated">{number.format(Number(v))}</span>}
              />
            ) : null}
          </Space>
          {data.regions.length === 0 ? (
            <Empty description={t(data.total > 0 ? 'noneLocated' : 'empty')} />
          ) : (
            <div className="mq-region-body">
              <Table<RegionStat>
                size="small"
                rowKey="code"
                pagination={false}
                dataSource={data.regions}
                className="mq-region-table"
                onRow={(row) => ({ 'data-testid': `region-row-${row.code}` }) as React.HTMLAttributes<HTMLElement>}
                columns={[
                  {
                    key: 'name',
                    dataIndex: 'name',
                    title: t(`level.${data.level}`),
                    render: (name: string, row) =>
                      drillable ? (
                        <Button
                          type="link"
                          size="small"
                          onClick={() => drill(row.code)}
                          aria-label={t('drill', { name })}
                          data-testid={`region-drill-${row.code}`}
                        >
                          {name}
                        </Button>
                      ) : (
                        name
                      ),
                  },
                  {
                    key: 'devices',
                    dataIndex: 'devices',
                    title: t('devices'),
                    align: 'right',
                    width: 100,
                    render: (v: number) => number.format(v),
                  },
                  {
                    key: 'online',
                    dataIndex: 'online',
                    title: t('online'),
                    align: 'right',
                    width: 100,
                    render: (v: number) => number.format(v),
                  },
                  {
                    key: 'onlineShare',
                    dataIndex: 'onlineShare',
                    title: t('onlineShare'),
                    width: 180,
                    render: (v: number, row) => (
                      <Progress percent={percent(v)} size="small" aria-label={t('onlineShareOf', { name: row.name })} />
                    ),
                  },
                ]}
              />
              <Suspense fallback={<Skeleton active />}>
                <RegionChart
                  regions={data.regions}
                  labels={labels}
                  description={t('chartDescription', { level: t(`level.${data.level}`) })}
                  onPick={drillable ? drill : undefined}
                />
              </Suspense>
            </div>
          )}
        </>
      ) : null}
    </Card>
  );
}
