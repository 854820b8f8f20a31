import { ReloadOutlined } from '@ant-design/icons';
import type { OutboxMessage } from '@marquee/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Input, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { timeColumn } from '../../components/columns';
import { ListTable } from '../../components/ListTable';
import { useUrlListState } from '../../components/listState';
import type { TableConfig } from '../../components/tableConfig';

/** New messages show up without a click while the page is open. */
const REFRESH_MS = 5000;
const FILTER_KEYS = ['target'] as const;

/**
 * The development outbox (route /dev/outbox, platform operator only): what the default code
 * sender "sent", newest first, so codes can be read with no SMS or mail provider. The
 * target filter and the page live in the URL.
 */
export default function OutboxPage() {
  const { t } = useTranslation('outbox');
  const listState = useUrlListState(FILTER_KEYS);
  const { page, size } = listState;
  const target = listState.filters.target ?? '';
  const [draft, setDraft] = useState(target);

  const list = useQuery({
    queryKey: ['devOutbox', page, size, target],
    queryFn: () => call('outboxList', { page, size, ...(target ? { target } : {}) }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });

  const config: TableConfig<OutboxMessage> = {
    id: 'devOutbox',
    columns: [
      timeColumn('createdAt', t('column.time'), { width: 180 }),
      {
        prop: 'channel',
        label: t('column.channel'),
        width: 100,
        slot: (v: OutboxMessage['channel']) => <Tag color={v === 'sms' ? 'blue' : 'purple'}>{t(`channel.${v}`)}</Tag>,
      },
      {
        prop: 'target',
        label: t('column.target'),
        width: 220,
        slot: (v: string) => <span data-testid="outbox-target">{v}</span>,
      },
      { prop: 'purpose', label: t('column.purpose'), width: 140, slot: (v: string) => t(`purpose.${v}`) },
      {
        prop: 'code',
        label: t('column.code'),
        width: 120,
        slot: (v: string) => (
          <Typography.Text strong copyable className="mq-outbox-code" data-testid="outbox-code">
            {v}
          </Typography.Text>
        ),
      },
      { prop: 'text', label: t('column.text'), ellipsis: true, width: 320 },
    ],
  };
  return (
    <div className="mq-view" data-testid="outbox-page">
      <Typography.Title level={3}>{t('title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('description')}</Typography.Paragraph>
      <Card>
        <ListTable
          config={config}
          query={list}
          state={listState}
          toolbar={
            <Space wrap>
              <Input.Search
                allowClear
                value={draft}
                placeholder={t('filter.target')}
                onChange={(e) => setDraft(e.target.value)}
                onSearch={(value) => listState.applyFilters({ target: value })}
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
          }
          // The list refreshes itself every few seconds: the spinner is for the first load only.
          loading={list.isPending}
          locale={{ emptyText: t('empty') }}
          rowTestId={() => 'outbox-row'}
          showTotal={(total) => t('total', { count: total })}
        />
      </Card>
    </div>
  );
}
