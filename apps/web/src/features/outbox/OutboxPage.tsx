import { ReloadOutlined } from '@ant-design/icons';
import { DEFAULT_PAGE_SIZE, type OutboxMessage, PAGE_SIZES } from '@marquee/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Input, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { call } from '../../api/client';

/** New messages show up without a click while the page is open. */
const REFRESH_MS = 5000;

/**
 * The development outbox (route /dev/outbox, platform operator only): what the default code
 * sender "sent", newest first, so codes can be read with no SMS or mail provider. The
 * target filter and the page live in the URL.
 */
export default function OutboxPage() {
  const { t } = useTranslation('outbox');
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const size = Number(params.get('size')) || DEFAULT_PAGE_SIZE;
  const target = params.get('target') ?? '';
  const [draft, setDraft] = useState(target);

  const list = useQuery({
    queryKey: ['devOutbox', page, size, target],
    queryFn: () => call('outboxList', { page, size, ...(target ? { target } : {}) }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });

  const update = (next: Record<string, string | number | undefined>) => {
    const merged = new URLSearchParams(params);
    for (const [key, value] of Object.entries(next)) {
      if (value === undefined || value === '') merged.delete(key);
      else merged.set(key, String(value));
    }
    setParams(merged, { replace: true });
  };

  const columns: ColumnsType<OutboxMessage> = [
    {
      title: t('column.time'),
      dataIndex: 'createdAt',
      width: 180,
      render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm:ss'),
    },
    {
      title: t('column.channel'),
      dataIndex: 'channel',
      width: 100,
      render: (v: OutboxMessage['channel']) => <Tag color={v === 'sms' ? 'blue' : 'purple'}>{t(`channel.${v}`)}</Tag>,
    },
    {
      title: t('column.target'),
      dataIndex: 'target',
      width: 220,
      render: (v: string) => <span data-testid="outbox-target">{v}</span>,
    },
    { title: t('column.purpose'), dataIndex: 'purpose', width: 140, render: (v: string) => t(`purpose.${v}`) },
    {
      title: t('column.code'),
      dataIndex: 'code',
      width: 120,
      render: (v: string) => (
        <Typography.Text strong copyable className="mq-outbox-code" data-testid="outbox-code">
          {v}
        </Typography.Text>
      ),
    },
    { title: t('column.text'), dataIndex: 'text', ellipsis: true },
  ];

  return (
    <div className="mq-view" data-testid="outbox-page">
      <Typography.Title level={3}>{t('title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('description')}</Typography.Paragraph>
      <Card>
        <Space wrap style={{ marginBottom: 16 }}>
          <Input.Search
            allowClear
            value={draft}
            placeholder={t('filter.target')}
            onChange={(e) => setDraft(e.target.value)}
            onSearch={(value) => update({ target: value.trim(), page: 1 })}
            style={{ width: 280 }}
            data-testid="outbox-filter"
          />
          <Button
            icon={<ReloadOutlined />}
            onClick={() => void list.refetch()}
            loading={list.isFetching}
            data-testid="outbox-refresh"
          >
            {t('refresh')}
          </Button>
        </Space>
        <Table<OutboxMessage>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={list.data?.data ?? []}
          loading={list.isPending}
          locale={{ emptyText: t('empty') }}
          onRow={() => ({ 'data-testid': 'outbox-row' }) as object}
          pagination={{
            current: page,
            pageSize: size,
            total: list.data?.total ?? 0,
            pageSizeOptions: PAGE_SIZES.map(String),
            showSizeChanger: true,
            showQuickJumper: true,
            showTotal: (total) => t('total', { total }),
            onChange: (nextPage, nextSize) =>
              update({ page: nextPage, size: nextSize === DEFAULT_PAGE_SIZE ? undefined : nextSize }),
          }}
          scroll={{ x: 900 }}
        />
      </Card>
    </div>
  );
}
