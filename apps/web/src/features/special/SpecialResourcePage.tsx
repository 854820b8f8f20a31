import { PlusOutlined } from '@ant-design/icons';
import {
  formatFen,
  formatTime,
  Perm,
  SPECIAL_MESSAGE_MAX,
  SPECIAL_PRICE_MAX_FEN,
  type SpecialInquiry,
  type SpecialInquiryState,
  type SpecialResource,
  yuanToFen,
} from '@marquee/protocol';
import {
  Button,
  Card,
  Col,
  DatePicker,
  Empty,
  Form,
  Image,
  Input,
  Popconfirm,
  Row,
  Space,
  Spin,
  Table,
  type TableColumnsType,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { TFunction } from 'i18next';
import { type HTMLAttributes, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { call } from '../../api/client';
import { useCallMutation, useCallQuery } from '../../api/queries';
import { FormDialog } from '../../components/FormDialog';
import { amountRule, checkYuan } from '../../components/money';
import { maxLengthRule, requiredRule } from '../../components/zodRule';

/** A choice (dates, a number, an option) must be made: `requiredRule` is for typed text. */
const chosen = (t: TFunction) => ({ required: true, message: t('required', { ns: 'validation' }) });

import { useCan } from '../../session/useCan';
import { ResourceDialog } from './ResourceDialog';

const STATE_COLOR: Record<SpecialInquiryState, string> = {
  open: 'blue',
  quoted: 'gold',
  accepted: 'green',
  declined: 'red',
  withdrawn: 'default',
};

function InquiryState({ state }: { state: SpecialInquiryState }) {
  const { t } = useTranslation('special');
  return (
    <Tag color={STATE_COLOR[state]} data-testid="special-inquiry-state">
      {t(`inquiryState.${state}`)}
    </Tag>
  );
}

/**
 * Special resources (/special/resource; issue 31, docs/ARCHITECTURE.md "Special resources"):
 * premium inventory sold by inquiry. The platform operator (Perm.specialResourceManage) keeps
 * the resources and answers inquiries with a quote or a decline (a station letter to the
 * inquirer). An advertiser sees the listed resources as cards with their photos, inquires, and
 * accepts a quote or withdraws in its own inquiries.
 */
export default function SpecialResourcePage() {
  const { t } = useTranslation('special');
  const can = useCan();
  const manager = can(Perm.specialResourceManage);
  const [params, setParams] = useSearchParams();
  const tabs = manager ? (['resources', 'inquiries'] as const) : (['shelf', 'mine'] as const);
  const active = (tabs as readonly string[]).includes(params.get('tab') ?? '')
    ? (params.get('tab') as string)
    : tabs[0];
  return (
    <div className="mq-view" data-testid="special-page">
      <Typography.Title level={4}>{t('title')}</Typography.Title>
      <Typography.Paragraph type="secondary">
        {manager ? t('intro.operator') : t('intro.advertiser')}
      </Typography.Paragraph>
      <Card size="small">
        <Tabs
          activeKey={active}
          onChange={(key) => setParams({ tab: key }, { replace: true })}
          destroyOnHidden
          items={tabs.map((key) => ({
            key,
            label: <span data-testid={`special-tab-${key}`}>{t(`tab.${key}`)}</span>,
            children:
              key === 'resources' ? (
                <OperatorResources />
              ) : key === 'inquiries' ? (
                <Inquiries manage />
              ) : key === 'shelf' ? (
                <Shelf />
              ) : (
                <Inquiries manage={false} />
              ),
          }))}
        />
      </Card>
    </div>
  );
}

function Period({ r }: { r: { startDate: string; endDate: string } }) {
  return <>{r.startDate === r.endDate ? r.startDate : `${r.startDate} ~ ${r.endDate}`}</>;
}

function OperatorResources() {
  const { t, i18n } = useTranslation('special');
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(10);
  const [editing, setEditing] = useState<SpecialResource | null | 'new'>(null);
  const list = useCallQuery('specialResourceList', { page, size }, { keepPrevious: true });
  const columns: TableColumnsType<SpecialResource> = [
    {
      key: 'title',
      title: t('field.title'),
      render: (_, r) => (
        <Space>
          {r.photos[0]?.url ? (
            <Image src={r.photos[0].url} width={56} height={40} style={{ objectFit: 'cover' }} alt="" />
          ) : null}
          <Button type="link" size="small" onClick={() => setEditing(r)} data-testid={`special-resource-edit-${r.id}`}>
            {r.title}
          </Button>
        </Space>
      ),
    },
    { key: 'kind', title: t('field.kind'), width: 110, render: (_, r) => t(`kind.${r.kind}`) },
    { key: 'period', title: t('field.period'), width: 200, render: (_, r) => <Period r={r} /> },
    { key: 'price', title: t('field.price'), width: 140, render: (_, r) => formatFen(r.price, i18n.language) },
    {
      key: 'held',
      title: t('field.held'),
      width: 110,
      render: (_, r) => t('held', { accepted: r.accepted, capacity: r.capacity }),
    },
    { key: 'open', title: t('field.open'), width: 100, dataIndex: 'open' },
    {
      key: 'state',
      title: t('field.state'),
      width: 100,
      render: (_, r) => (
        <Tag color={r.state === 'listed' ? 'green' : r.state === 'draft' ? 'default' : 'orange'}>
          {t(`resourceState.${r.state}`)}
        </Tag>
      ),
    },
  ];
  return (
    <div data-testid="special-resources">
      <div style={{ display: 'flex', justifyContent: 'flex-end', marginBottom: 12 }}>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing('new')}
          data-testid="special-resource-new"
        >
          {t('resource.add')}
        </Button>
      </div>
      <Table<SpecialResource>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.data ?? []}
        loading={list.isFetching}
        pagination={{
          current: page,
          pageSize: size,
          total: list.data?.total ?? 0,
          onChange: (p, s) => {
            setPage(p);
            setSize(s);
          },
        }}
        locale={{ emptyText: <Empty description={list.isError ? t('list.error') : t('list.emptyResources')} /> }}
      />
      <ResourceDialog
        open={editing !== null}
        editing={editing === 'new' ? null : editing}
        onClose={() => setEditing(null)}
      />
    </div>
  );
}

function Shelf() {
  const { t, i18n } = useTranslation('special');
  const [asking, setAsking] = useState<SpecialResource | null>(null);
  const list = useCallQuery('specialListed', { page: 1, size: 100 });
  if (list.isLoading) return <Spin />;
  const rows = list.data?.data ?? [];
  if (rows.length === 0) return <Empty description={list.isError ? t('list.error') : t('list.emptyShelf')} />;
  return (
    <>
      <Row gutter={[16, 16]} data-testid="special-shelf">
        {rows.map((r) => (
          <Col key={r.id} xs={24} sm={12} lg={8}>
            <Card
              data-testid={`special-card-${r.id}`}
              cover={
                r.photos[0]?.url ? (
                  <Image src={r.photos[0].url} height={180} style={{ objectFit: 'cover' }} alt={r.title} />
                ) : undefined
              }
              actions={[
                r.accepted >= r.capacity ? (
                  <Typography.Text type="secondary" key="full">
                    {t('full')}
                  </Typography.Text>
                ) : (
                  <Button type="link" key="ask" onClick={() => setAsking(r)} data-testid={`special-inquire-${r.id}`}>
                    {t('inquiry.open')}
                  </Button>
                ),
              ]}
            >
              <Card.Meta
                title={r.title}
                description={
                  <Space direction="vertical" size={2}>
                    <span>
                      <Tag>{t(`kind.${r.kind}`)}</Tag>
                      <Period r={r} />
                    </span>
                    <span>{t('referencePrice', { price: formatFen(r.price, i18n.language) })}</span>
                    {r.description ? (
                      <Typography.Paragraph ellipsis={{ rows: 3 }} style={{ marginBottom: 0 }}>
                        {r.description}
                      </Typography.Paragraph>
                    ) : null}
                  </Space>
                }
              />
            </Card>
          </Col>
        ))}
      </Row>
      <InquireDialog resource={asking} onClose={() => setAsking(null)} />
    </>
  );
}

function InquireDialog({ resource, onClose }: { resource: SpecialResource | null; onClose: () => void }) {
  const { t } = useTranslation('special');
  const within = (d: Dayjs) =>
    !!resource && (d.format('YYYY-MM-DD') < resource.startDate || d.format('YYYY-MM-DD') > resource.endDate);
  return (
    <FormDialog<{ period: [Dayjs, Dayjs]; message: string }>
      open={resource !== null}
      title={resource ? t('inquiry.title', { title: resource.title }) : ''}
      onClose={onClose}
      initialValues={{
        period: resource ? [dayjs(resource.startDate), dayjs(resource.endDate)] : undefined,
        message: '',
      }}
      submit={(v) =>
        call('specialInquire', {
          resourceId: resource?.id ?? '',
          startDate: v.period[0].format('YYYY-MM-DD'),
          endDate: v.period[1].format('YYYY-MM-DD'),
          message: (v.message ?? '').trim(),
        })
      }
      success={t('inquiry.sent')}
      invalidates={['special']}
      cancelText={t('cancel')}
      okText={t('inquiry.send')}
      testId="special-inquire-form"
      submitTestId="special-inquire-submit"
    >
      <Form.Item name="period" label={t('inquiry.period')} rules={[chosen(t)]}>
        <DatePicker.RangePicker allowClear={false} disabledDate={within} data-testid="special-inquire-period" />
      </Form.Item>
      <Form.Item name="message" label={t('inquiry.message')} rules={[maxLengthRule(t, SPECIAL_MESSAGE_MAX)]}>
        <Input.TextArea
          autoSize={{ minRows: 3, maxRows: 6 }}
          maxLength={SPECIAL_MESSAGE_MAX}
          showCount
          placeholder={t('inquiry.messageHint')}
          data-testid="special-inquire-message"
        />
      </Form.Item>
    </FormDialog>
  );
}

function Inquiries({ manage }: { manage: boolean }) {
  const { t, i18n } = useTranslation('special');
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(10);
  const [answering, setAnswering] = useState<{ inquiry: SpecialInquiry; action: 'quote' | 'decline' } | null>(null);
  const list = useCallQuery(
    manage ? 'specialInquiryList' : 'specialMyInquiries',
    { page, size },
    { keepPrevious: true },
  );
  const respond = useCallMutation('specialInquiryRespond', {
    success: (a) => (a.state === 'accepted' ? t('inquiry.accepted') : t('inquiry.withdrawn')),
  });
  const columns: TableColumnsType<SpecialInquiry> = [
    { key: 'resource', title: t('field.resource'), dataIndex: 'resourceTitle', width: 200, ellipsis: true },
    ...(manage
      ? [
          {
            key: 'who',
            title: t('field.inquirer'),
            width: 200,
            ellipsis: true,
            render: (_: unknown, r: SpecialInquiry) => `${r.inquirerName} · ${r.entName}`,
          },
        ]
      : []),
    { key: 'period', title: t('inquiry.period'), width: 200, render: (_, r) => <Period r={r} /> },
    { key: 'message', title: t('inquiry.message'), dataIndex: 'message', ellipsis: true },
    {
      key: 'quote',
      title: t('field.quote'),
      width: 200,
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          {r.quotedPrice !== null ? (
            <span data-testid="special-inquiry-quote">{formatFen(r.quotedPrice, i18n.language)}</span>
          ) : (
            '—'
          )}
          {r.answer ? <Typography.Text type="secondary">{r.answer}</Typography.Text> : null}
        </Space>
      ),
    },
    { key: 'state', title: t('field.state'), width: 100, render: (_, r) => <InquiryState state={r.state} /> },
    { key: 'createdAt', title: t('field.createdAt'), width: 170, render: (_, r) => formatTime(r.createdAt) },
    {
      key: 'actions',
      title: t('field.actions'),
      width: 180,
      render: (_, r) =>
        manage ? (
          r.state === 'open' || r.state === 'quoted' ? (
            <Space>
              <Button
                size="small"
                onClick={() => setAnswering({ inquiry: r, action: 'quote' })}
                data-testid={`special-quote-${r.id}`}
              >
                {r.state === 'quoted' ? t('answer.requote') : t('answer.quote')}
              </Button>
              <Button
                size="small"
                danger
                onClick={() => setAnswering({ inquiry: r, action: 'decline' })}
                data-testid={`special-decline-${r.id}`}
              >
                {t('answer.decline')}
              </Button>
            </Space>
          ) : null
        ) : (
          <Space>
            {r.state === 'quoted' ? (
              <Popconfirm
                title={t('inquiry.acceptConfirm', { price: formatFen(r.quotedPrice ?? 0, i18n.language) })}
                onConfirm={() => respond.mutate({ id: r.id, action: 'accept' })}
              >
                <Button size="small" type="primary" data-testid={`special-accept-${r.id}`}>
                  {t('inquiry.accept')}
                </Button>
              </Popconfirm>
            ) : null}
            {r.state === 'open' || r.state === 'quoted' ? (
              <Popconfirm
                title={t('inquiry.withdrawConfirm')}
                onConfirm={() => respond.mutate({ id: r.id, action: 'withdraw' })}
              >
                <Button size="small" data-testid={`special-withdraw-${r.id}`}>
                  {t('inquiry.withdraw')}
                </Button>
              </Popconfirm>
            ) : null}
          </Space>
        ),
    },
  ];
  return (
    <div data-testid={manage ? 'special-inquiries' : 'special-mine'}>
      <Table<SpecialInquiry>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.data ?? []}
        loading={list.isFetching}
        pagination={{
          current: page,
          pageSize: size,
          total: list.data?.total ?? 0,
          onChange: (p, s) => {
            setPage(p);
            setSize(s);
          },
        }}
        onRow={(r) => ({ 'data-testid': `special-inquiry-${r.id}` }) as HTMLAttributes<HTMLElement>}
        locale={{ emptyText: <Empty description={list.isError ? t('list.error') : t('list.emptyInquiries')} /> }}
      />
      <AnswerDialog answering={answering} onClose={() => setAnswering(null)} />
    </div>
  );
}

function AnswerDialog({
  answering,
  onClose,
}: {
  answering: { inquiry: SpecialInquiry; action: 'quote' | 'decline' } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('special');
  const quote = answering?.action === 'quote';
  return (
    <FormDialog<{ priceYuan: string; answer: string }>
      open={answering !== null}
      title={
        answering
          ? t(quote ? 'answer.quoteTitle' : 'answer.declineTitle', { title: answering.inquiry.resourceTitle })
          : ''
      }
      onClose={onClose}
      initialValues={{ priceYuan: '', answer: '' }}
      submit={(v) => {
        const price = yuanToFen(v.priceYuan ?? '');
        return call('specialInquiryAnswer', {
          id: answering?.inquiry.id ?? '',
          action: quote ? 'quote' : 'decline',
          ...(quote ? { price: price.ok ? price.fen : -1 } : {}),
          answer: (v.answer ?? '').trim(),
        });
      }}
      success={quote ? t('answer.quoted') : t('answer.declined')}
      invalidates={['special']}
      cancelText={t('cancel')}
      okText={quote ? t('answer.quote') : t('answer.decline')}
      testId="special-answer-form"
      submitTestId="special-answer-submit"
    >
      {quote ? (
        <Form.Item
          name="priceYuan"
          label={t('field.quote')}
          extra={t('field.priceHint')}
          rules={[requiredRule(t), amountRule((s) => checkYuan(s, { zero: true, maxFen: SPECIAL_PRICE_MAX_FEN }), t)]}
        >
          <Input
            prefix="¥"
            inputMode="decimal"
            maxLength={14}
            style={{ width: 200 }}
            data-testid="special-answer-price"
          />
        </Form.Item>
      ) : null}
      <Form.Item
        name="answer"
        label={quote ? t('answer.note') : t('answer.reason')}
        rules={[...(quote ? [] : [requiredRule(t)]), maxLengthRule(t, SPECIAL_MESSAGE_MAX)]}
      >
        <Input.TextArea
          autoSize={{ minRows: 2, maxRows: 5 }}
          maxLength={SPECIAL_MESSAGE_MAX}
          showCount
          data-testid="special-answer-text"
        />
      </Form.Item>
    </FormDialog>
  );
}
