import { ReloadOutlined } from '@ant-design/icons';
import type { OutboxMessage } from '@marquee/protocol';
import { Button, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { timeColumn } from '../../components/columns';
import { ListPage, useListPage } from '../../components/listPage';

/** New messages show up without a click while the page is open. */
const REFRESH_MS = 5000;

/**
 * The development outbox (route /dev/outbox, platform operator only): what the default code
 * sender "sent", newest first, so codes can be read with no SMS or mail provider. The
 * target filter and the page live in the URL.
 */
export default function OutboxPage() {
  const { t } = useTranslation('outbox');
  const list = useListPage({
    id: 'devOutbox',
    endpoint: 'outboxList',
    refetchInterval: REFRESH_MS,
    filters: [
      {
        key: 'target',
        label: t('column.target'),
        placeholder: t('filter.target'),
        maxLength: 254,
        width: 280,
        testId: 'outbox-filter',
      },
    ],
    columns: [
      timeColumn<OutboxMessage>('createdAt', t('column.time'), { width: 180 }),
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
  });
  const { query } = list;

  return (
    <ListPage
      list={list}
      testPrefix="outbox"
      header={
        <>
          <Typography.Title level={3}>{t('title')}</Typography.Title>
          <Typography.Paragraph type="secondary">{t('description')}</Typography.Paragraph>
        </>
      }
      toolbar={
        <Button
          icon={<ReloadOutlined />}
          onClick={() => void query.refetch()}
          loading={query.isFetching}
          data-testid="outbox-refresh"
        >
          {t('refresh')}
        </Button>
      }
      // The list refreshes itself every few seconds: the spinner is for the first load only.
      loading={query.isPending}
      empty={t('empty')}
      rowTestId={() => 'outbox-row'}
      showTotal={(total) => t('total', { count: total })}
    />
  );
}
