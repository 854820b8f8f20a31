import { PlusOutlined } from '@ant-design/icons';
import {
  FEEDBACK_CATEGORIES,
  FEEDBACK_STATES,
  type FeedbackCategory,
  type FeedbackItem,
  type FeedbackState,
  formatTime,
  Perm,
} from '@marquee/protocol';
import { Button, Card, Empty, Input, Select, Space, Table, type TableColumnsType, Tabs, Typography } from 'antd';
import { type HTMLAttributes, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCallQuery } from '../../api/queries';
import { useCan } from '../../session/useCan';
import { FeedbackDetail, StateTag } from './FeedbackDetail';
import { SubmitDialog } from './SubmitDialog';

const TABS = ['mine', 'all'] as const;

/**
 * My help (/my/help; issue 31, spec section 5): the user's own feedback with its state
 * (submitted, replied, closed), a dialog to write one (within 500 characters, screenshots
 * through storage), a drawer with the reply. The platform operator (Perm.feedbackManage) also
 * sees everyone's feedback in a second tab (`?tab=all`) and replies: the reply reaches the
 * author as a station letter.
 */
export default function FeedbackPage() {
  const { t } = useTranslation('feedback');
  const can = useCan();
  const manager = can(Perm.feedbackManage);
  const [params, setParams] = useSearchParams();
  const active = manager && params.get('tab') === 'all' ? 'all' : 'mine';

  return (
    <div className="mq-view" data-testid="feedback-page">
      <Typography.Title level={4}>{t('title')}</Typography.Title>
      {manager ? (
        <Card size="small">
          <Tabs
            activeKey={active}
            onChange={(key) => setParams({ tab: key }, { replace: true })}
            destroyOnHidden
            items={TABS.map((key) => ({
              key,
              label: <span data-testid={`feedback-tab-${key}`}>{t(`tab.${key}`)}</span>,
              children: <FeedbackList manage={key === 'all'} />,
            }))}
          />
        </Card>
      ) : (
        <FeedbackList manage={false} />
      )}
    </div>
  );
}

function FeedbackList({ manage }: { manage: boolean }) {
  const { t } = useTranslation('feedback');
  const [state, setState] = useState<FeedbackState | undefined>();
  const [category, setCategory] = useState<FeedbackCategory | undefined>();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(10);
  const [open, setOpen] = useState<string | null>(null);
  const [writing, setWriting] = useState(false);
  const list = useCallQuery(
    manage ? 'feedbackManageList' : 'feedbackMine',
    { page, size, ...(state ? { state } : {}), ...(category ? { category } : {}), ...(keyword ? { keyword } : {}) },
    { keepPrevious: true },
  );

  const columns: TableColumnsType<FeedbackItem> = [
    {
      key: 'content',
      dataIndex: 'content',
      title: t('field.content'),
      ellipsis: true,
      render: (v: string, row) => (
        <Button type="link" size="small" onClick={() => setOpen(row.id)} data-testid={`feedback-open-${row.id}`}>
          <Typography.Text ellipsis style={{ maxWidth: 360 }}>
            {v}
          </Typography.Text>
        </Button>
      ),
    },
    {
      key: 'category',
      dataIndex: 'category',
      title: t('field.category'),
      width: 110,
      render: (v: string) => t(`category.${v}`),
    },
    ...(manage
      ? [
          {
            key: 'author',
            title: t('field.author'),
            width: 200,
            ellipsis: true,
            render: (_: unknown, row: FeedbackItem) => `${row.authorName} · ${row.entName}`,
          },
        ]
      : []),
    { key: 'shotCount', dataIndex: 'shotCount', title: t('field.shotCount'), width: 90 },
    {
      key: 'state',
      dataIndex: 'state',
      title: t('field.state'),
      width: 100,
      render: (v: FeedbackState) => <StateTag state={v} />,
    },
    {
      key: 'createdAt',
      dataIndex: 'createdAt',
      title: t('field.createdAt'),
      width: 170,
      render: (v: string) => formatTime(v),
    },
  ];

  return (
    <Card size="small" data-testid={manage ? 'feedback-list-all' : 'feedback-list-mine'}>
      <div style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 12, gap: 8, flexWrap: 'wrap' }}>
        <Space wrap>
          <Select
            allowClear
            placeholder={t('field.state')}
            aria-label={t('field.state')}
            style={{ width: 130 }}
            value={state}
            onChange={(v) => {
              setState(v);
              setPage(1);
            }}
            options={FEEDBACK_STATES.map((s) => ({ value: s, label: t(`state.${s}`) }))}
            data-testid="feedback-filter-state"
          />
          <Select
            allowClear
            placeholder={t('field.category')}
            aria-label={t('field.category')}
            style={{ width: 130 }}
            value={category}
            onChange={(v) => {
              setCategory(v);
              setPage(1);
            }}
            options={FEEDBACK_CATEGORIES.map((c) => ({ value: c, label: t(`category.${c}`) }))}
          />
          <Input.Search
            allowClear
            maxLength={64}
            placeholder={t('filter.keyword')}
            aria-label={t('filter.keyword')}
            style={{ width: 220 }}
            onSearch={(v) => {
              setKeyword(v.trim());
              setPage(1);
            }}
          />
        </Space>
        {!manage && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setWriting(true)} data-testid="feedback-new">
            {t('submit.open')}
          </Button>
        )}
      </div>
      <Table<FeedbackItem>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.data ?? []}
        loading={list.isFetching}
        pagination={{
          current: page,
          pageSize: size,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          onChange: (p, s) => {
            setPage(p);
            setSize(s);
          },
        }}
        onRow={(row) => ({ 'data-testid': `feedback-row-${row.id}` }) as HTMLAttributes<HTMLElement>}
        locale={{
          emptyText: (
            <Empty description={list.isError ? t('list.error') : manage ? t('list.emptyAll') : t('list.empty')} />
          ),
        }}
      />
      <FeedbackDetail id={open} manage={manage} onClose={() => setOpen(null)} />
      {!manage && <SubmitDialog open={writing} onClose={() => setWriting(false)} />}
    </Card>
  );
}
