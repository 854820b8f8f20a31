import { PlusOutlined } from '@ant-design/icons';
import {
  type Endpoints,
  fenToYuan,
  formatFen,
  INVOICE_STATES,
  type Invoice,
  Perm,
  type Req,
  socialCreditCodeSchema,
  toChineseAmount,
} from '@marquee/protocol';
import { Button, Descriptions, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { tagColumn, timeColumn } from '../../components/columns';
import { FormDialog } from '../../components/FormDialog';
import { ListPage, useListPage } from '../../components/listPage';
import { NotForMonitor } from '../../components/MonitorGuard';
import { amountRule, checkYuan } from '../../components/money';
import { maxLengthRule, requiredRule, zodRule } from '../../components/zodRule';
import { invoiceStateLook } from './look';

/**
 * The Invoices tab: invoices asked for by the wallets the caller sees, their state, number or
 * reason. An enterprise asks for one (title, tax number, amount up to what it paid and has not
 * had invoiced); the platform operator issues it (its number) or refuses it (a reason).
 */
export function InvoicesTab({
  walletId,
  invoiceable,
  canRequest,
  showOwner,
}: {
  /** The selected wallet (the one an invoice is asked for). */
  walletId?: string;
  /** What the wallet can still have invoiced, fen. */
  invoiceable: number;
  /** The selected wallet can ask for invoices (not a platform account). */
  canRequest: boolean;
  showOwner: boolean;
}) {
  const { t, i18n } = useTranslation('finance');
  const language = i18n.language;
  const [requesting, setRequesting] = useState(false);
  const [reviewing, setReviewing] = useState<{ invoice: Invoice; action: 'issue' | 'refuse' } | null>(null);
  const list = useListPage({
    id: 'financeInvoices',
    endpoint: 'invoiceList',
    scope: ['wallet'],
    filters: [
      { key: 'keyword', label: t('filter.keyword'), placeholder: t('filter.invoiceKeyword'), maxLength: 64 },
      {
        key: 'state',
        kind: 'select',
        label: t('filter.state'),
        placeholder: t('filter.all'),
        width: 130,
        options: INVOICE_STATES.map((s) => ({ value: s, label: t(`invoiceState.${s}`) })),
      },
    ],
    request: ({ wallet, ...filters }, page) =>
      ({
        page: page.page,
        size: page.size,
        ...filters,
        ...(wallet ? { walletId: String(wallet) } : {}),
      }) as Req<Endpoints['invoiceList']>,
    columns: [
      timeColumn<Invoice>('requestedAt', t('col.requestedAt')),
      { prop: 'entName', label: t('col.enterprise'), width: 180, ellipsis: true, show: showOwner },
      { prop: 'title', label: t('col.invoiceTitle'), width: 200, ellipsis: true },
      { prop: 'taxNo', label: t('col.taxNo'), width: 190 },
      {
        prop: 'amount',
        label: t('col.amount'),
        width: 130,
        align: 'right',
        slot: (v: number) => formatFen(v, language),
      },
      tagColumn<Invoice>('state', t('col.state'), invoiceStateLook(t), { width: 100 }),
      {
        prop: 'invoiceNo',
        label: t('col.invoiceNo'),
        width: 170,
        slot: (v: string, row) => (row.state === 'refused' ? row.reason || '-' : v || '-'),
      },
      { prop: 'email', label: t('col.email'), width: 180, ellipsis: true, show: false },
      { prop: 'remark', label: t('col.remark'), width: 160, ellipsis: true, show: false },
      { prop: 'requestedBy', label: t('col.requestedBy'), width: 120, ellipsis: true, show: false },
      timeColumn<Invoice>('reviewedAt', t('col.reviewedAt'), { show: false }),
    ],
    operations: [
      {
        key: 'issue',
        label: t('invoice.issue'),
        authCode: Perm.financeManage,
        notForMonitor: true,
        isShow: (row) => row.state === 'requested',
        handler: (row) => setReviewing({ invoice: row, action: 'issue' }),
        testId: () => 'finance-invoice-issue',
      },
      {
        key: 'refuse',
        label: t('invoice.refuse'),
        authCode: Perm.financeManage,
        notForMonitor: true,
        danger: true,
        isShow: (row) => row.state === 'requested',
        handler: (row) => setReviewing({ invoice: row, action: 'refuse' }),
        testId: () => 'finance-invoice-refuse',
      },
    ],
  });

  return (
    <ListPage
      list={list}
      bare
      testPrefix="finance-invoices"
      toolbar={
        canRequest ? (
          <NotForMonitor>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setRequesting(true)}
              disabled={invoiceable <= 0}
              title={invoiceable <= 0 ? t('invoice.nothing') : undefined}
              data-testid="finance-invoice-request"
            >
              {t('invoice.request')}
            </Button>
          </NotForMonitor>
        ) : null
      }
      rowTestId={() => 'finance-invoices-row'}
      empty={list.filtered ? t('invoices.emptyFiltered') : t('invoices.empty')}
      failed={{ description: t('loadFailed'), retryLabel: t('action.retry') }}
      showTotal={(total) => t('invoices.total', { count: total })}
    >
      <InvoiceRequestDialog
        open={requesting}
        walletId={walletId}
        invoiceable={invoiceable}
        onClose={() => setRequesting(false)}
      />
      <InvoiceReviewDialog reviewing={reviewing} onClose={() => setReviewing(null)} />
    </ListPage>
  );
}

interface RequestForm {
  title: string;
  taxNo: string;
  amount: string;
  email?: string;
  remark?: string;
}

/** Asks for an invoice: title, tax number (the social credit code rule), amount up to the invoiceable. */
function InvoiceRequestDialog({
  open,
  walletId,
  invoiceable,
  onClose,
}: {
  open: boolean;
  walletId?: string;
  invoiceable: number;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation(['finance', 'validation']);
  const language = i18n.language;
  const [form] = Form.useForm<RequestForm>();
  const typed = Form.useWatch('amount', form);
  const check = typed ? checkYuan(typed) : null;
  const max = formatFen(invoiceable, language);
  return (
    <FormDialog<RequestForm>
      open={open}
      form={form}
      title={t('invoice.requestTitle')}
      onClose={onClose}
      values={{ amount: invoiceable > 0 ? fenToYuan(invoiceable) : '' }}
      submit={(v) => {
        const amount = checkYuan(v.amount, { maxFen: invoiceable });
        if (!amount.ok) throw new Error(amount.key);
        return call('invoiceRequest', {
          ...(walletId ? { walletId } : {}),
          title: v.title,
          taxNo: v.taxNo.trim(),
          amount: amount.fen,
          email: v.email?.trim() ?? '',
          remark: v.remark?.trim() ?? '',
        });
      }}
      success={t('invoice.requested')}
      invalidates={['finance']}
      okText={t('invoice.requestSubmit')}
      cancelText={t('action.cancel')}
      submitTestId="finance-invoice-submit"
      testId="finance-invoice-form"
      width={560}
    >
      <Typography.Paragraph type="secondary" data-testid="finance-invoice-max">
        {t('invoice.max', { amount: max })}
      </Typography.Paragraph>
      <Form.Item name="title" label={t('invoice.titleField')} rules={[requiredRule(t), maxLengthRule(t, 100)]}>
        <Input maxLength={100} data-testid="finance-invoice-title" />
      </Form.Item>
      <Form.Item
        name="taxNo"
        label={t('invoice.taxNo')}
        extra={t('invoice.taxNoHint')}
        rules={[requiredRule(t), zodRule(socialCreditCodeSchema, t)]}
      >
        <Input maxLength={18} data-testid="finance-invoice-tax" />
      </Form.Item>
      <Form.Item
        name="amount"
        label={t('invoice.amount')}
        extra={check?.ok && language === 'zh-CN' ? toChineseAmount(fenToYuan(check.fen)) : undefined}
        rules={[
          requiredRule(t),
          amountRule((text) => checkYuan(text), t),
          {
            validator: async (_: unknown, value: unknown) => {
              const c = checkYuan(String(value ?? ''));
              if (c.ok && c.fen > invoiceable) throw new Error(t('invoice.overMax', { amount: max }));
            },
          },
        ]}
      >
        <Input prefix="¥" inputMode="decimal" maxLength={16} data-testid="finance-invoice-amount" />
      </Form.Item>
      <Form.Item name="email" label={t('invoice.email')} rules={[{ type: 'email', message: t('validation:email') }]}>
        <Input type="email" maxLength={254} data-testid="finance-invoice-email" />
      </Form.Item>
      <Form.Item name="remark" label={t('invoice.remark')} rules={[maxLengthRule(t, 200)]}>
        <Input.TextArea maxLength={200} rows={2} showCount data-testid="finance-invoice-remark" />
      </Form.Item>
    </FormDialog>
  );
}

/** The platform operator issues an invoice (its number) or refuses it (a reason), after reading what is asked. */
function InvoiceReviewDialog({
  reviewing,
  onClose,
}: {
  reviewing: { invoice: Invoice; action: 'issue' | 'refuse' } | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation(['finance', 'validation']);
  const language = i18n.language;
  const invoice = reviewing?.invoice;
  const issue = reviewing?.action === 'issue';
  return (
    <FormDialog<{ invoiceNo?: string; reason?: string }>
      open={reviewing !== null}
      title={issue ? t('invoice.issueTitle') : t('invoice.refuseTitle')}
      onClose={onClose}
      submit={(v) =>
        issue
          ? call('invoiceIssue', { id: invoice?.id ?? '', invoiceNo: v.invoiceNo ?? '' })
          : call('invoiceRefuse', { id: invoice?.id ?? '', reason: v.reason ?? '' })
      }
      success={issue ? t('invoice.issued') : t('invoice.refused')}
      invalidates={['finance']}
      okText={issue ? t('invoice.issueSubmit') : t('invoice.refuseSubmit')}
      cancelText={t('action.cancel')}
      submitTestId="finance-invoice-review-submit"
      testId="finance-invoice-review-form"
      width={560}
    >
      {invoice ? (
        <Descriptions column={1} size="small" bordered className="mq-finance-review">
          <Descriptions.Item label={t('col.enterprise')}>{invoice.entName}</Descriptions.Item>
          <Descriptions.Item label={t('col.invoiceTitle')}>{invoice.title}</Descriptions.Item>
          <Descriptions.Item label={t('col.taxNo')}>{invoice.taxNo}</Descriptions.Item>
          <Descriptions.Item label={t('col.amount')}>
            {formatFen(invoice.amount, language)}
            {language === 'zh-CN' ? (
              <Typography.Text type="secondary"> （{toChineseAmount(fenToYuan(invoice.amount))}）</Typography.Text>
            ) : null}
          </Descriptions.Item>
          {invoice.email ? <Descriptions.Item label={t('col.email')}>{invoice.email}</Descriptions.Item> : null}
          {invoice.remark ? <Descriptions.Item label={t('col.remark')}>{invoice.remark}</Descriptions.Item> : null}
        </Descriptions>
      ) : null}
      <div style={{ height: 16 }} />
      {issue ? (
        <Form.Item name="invoiceNo" label={t('invoice.invoiceNo')} rules={[requiredRule(t), maxLengthRule(t, 40)]}>
          <Input maxLength={40} autoFocus data-testid="finance-invoice-no" />
        </Form.Item>
      ) : (
        <Form.Item name="reason" label={t('invoice.reason')} rules={[requiredRule(t), maxLengthRule(t, 200)]}>
          <Input.TextArea maxLength={200} rows={3} showCount autoFocus data-testid="finance-invoice-reason" />
        </Form.Item>
      )}
    </FormDialog>
  );
}
