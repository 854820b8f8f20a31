import { formatFen, formatTime, OFFLINE_STATES, type OfflinePayment, Perm } from '@marquee/protocol';
import { App, Form, Input, Space, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCallMutation } from '../../api/queries';
import { confirmOkProps } from '../../components/ConfirmAction';
import { FormDialog } from '../../components/FormDialog';
import { ListPage, useListPage } from '../../components/listPage';
import { maxLengthRule, requiredRule } from '../../components/zodRule';
import { OFFLINE_STATE_COLORS, payPath } from './payLogic';
import { VoucherList } from './VoucherList';
import './payments.css';

/** The reject dialog: the reason the payer will read. */
function RejectDialog({ row, onClose }: { row: OfflinePayment | null; onClose: () => void }) {
  const { t, i18n } = useTranslation(['payments', 'common', 'validation']);
  const reject = useCallMutation('paymentOfflineReject');
  return (
    <FormDialog<{ reason: string }>
      open={row !== null}
      title={t('review.rejectTitle', { no: row?.orderNo ?? '' })}
      onClose={onClose}
      submit={async ({ reason }) => {
        if (row) await reject.mutateAsync({ id: row.id, reason: reason.trim() });
      }}
      success={t('toast.rejected')}
      okText={t('review.reject')}
      cancelText={t('action.cancel', { ns: 'common' })}
      submitTestId="offline-review-reject-ok"
      testId="offline-review-reject-form"
    >
      {row ? (
        <Typography.Paragraph type="secondary">
          {t('review.rejectHint', { ent: row.entName, amount: formatFen(row.amount, i18n.language) })}
        </Typography.Paragraph>
      ) : null}
      <Form.Item name="reason" label={t('review.reason')} rules={[requiredRule(t), maxLengthRule(t, 200)]}>
        <Input.TextArea
          maxLength={200}
          showCount
          autoSize={{ minRows: 3, maxRows: 6 }}
          placeholder={t('review.reasonHint')}
          data-testid="offline-review-reason"
        />
      </Form.Item>
    </FormDialog>
  );
}

/**
 * The platform operator's review of offline transfers (a tab of the finance centre): every
 * enterprise's declared transfers, filtered by state and keyword, with their vouchers
 * (images previewed, PDFs opened); Confirm (states the amount credited, asks first) and Reject
 * (with the reason the payer reads) for the ones waiting. Other callers see their own, read only.
 */
export function OfflineReviewPanel() {
  const { t, i18n } = useTranslation(['payments', 'common']);
  const { modal } = App.useApp();
  const [rejecting, setRejecting] = useState<OfflinePayment | null>(null);
  const confirm = useCallMutation('paymentOfflineConfirm', { success: t('toast.confirmed'), invalidates: ['finance'] });
  const language = i18n.language;

  const askConfirm = (row: OfflinePayment) =>
    modal.confirm({
      title: t('review.confirmTitle'),
      content: t('review.confirm', {
        amount: formatFen(row.amount, language),
        ent: row.entName,
        no: row.orderNo,
        transferNo: row.transferNo,
      }),
      okText: t('review.confirmOk'),
      cancelText: t('action.cancel', { ns: 'common' }),
      okButtonProps: confirmOkProps(),
      onOk: () => confirm.mutateAsync({ id: row.id }).catch(() => undefined),
    });

  const manage = {
    authCode: Perm.financeManage,
    notForMonitor: true,
    isShow: (r: OfflinePayment) => r.state === 'submitted',
  };
  const list = useListPage({
    id: 'offlineReview',
    endpoint: 'paymentOfflineList',
    // Own URL keys: the finance centre's other tabs filter by `state` and `keyword` too.
    request: (f, page) => ({
      page: page.page,
      size: page.size,
      state: f.offlineState as OfflinePayment['state'] | undefined,
      keyword: f.offlineKeyword as string | undefined,
    }),
    filters: [
      {
        key: 'offlineState',
        kind: 'select',
        label: t('review.filterState'),
        placeholder: t('review.all'),
        width: 150,
        options: OFFLINE_STATES.map((s) => ({ value: s, label: t(`offlineState.${s}`) })),
        testId: 'offline-review-filter-state',
      },
      {
        key: 'offlineKeyword',
        label: t('review.filterKeyword'),
        placeholder: t('review.keywordHint'),
        maxLength: 64,
        testId: 'offline-review-filter-keyword',
      },
    ],
    operationsLabel: t('review.actions'),
    columns: [
      { prop: 'entName', label: t('field.enterprise'), width: 180, ellipsis: true },
      {
        prop: 'orderNo',
        label: t('field.orderNo'),
        width: 190,
        slot: (v: string, row) => <Link to={payPath(row.orderId)}>{v}</Link>,
      },
      {
        prop: 'amount',
        label: t('field.amount'),
        width: 130,
        align: 'right',
        slot: (v: number) => <span className="mq-num">{formatFen(v, language)}</span>,
      },
      {
        prop: 'payerName',
        label: t('field.payer'),
        width: 200,
        slot: (v: string, row) => (
          <Space orientation="vertical" size={0}>
            <span>{v}</span>
            {row.bankName || row.bankAccount ? (
              <Typography.Text type="secondary" className="mq-pay-small">
                {[row.bankName, row.bankAccount].filter(Boolean).join(' ')}
              </Typography.Text>
            ) : null}
          </Space>
        ),
      },
      {
        prop: 'transferNo',
        label: t('field.transfer'),
        width: 200,
        slot: (v: string, row) => (
          <Space orientation="vertical" size={0}>
            <span>{v}</span>
            <Typography.Text type="secondary" className="mq-pay-small">
              {formatTime(row.transferredAt)}
            </Typography.Text>
          </Space>
        ),
      },
      {
        prop: 'vouchers',
        label: t('field.vouchers'),
        width: 180,
        slot: (v: OfflinePayment['vouchers'], row) => (
          <VoucherList vouchers={v} testId={`offline-review-vouchers-${row.id}`} />
        ),
      },
      { prop: 'remark', label: t('field.remark'), width: 160, ellipsis: true, show: false },
      {
        prop: 'state',
        label: t('field.state'),
        width: 110,
        slot: (v: OfflinePayment['state'], row) => {
          const tag = <Tag color={OFFLINE_STATE_COLORS[v]}>{t(`offlineState.${v}`)}</Tag>;
          return v === 'rejected' && row.reason ? <Tooltip title={row.reason}>{tag}</Tooltip> : tag;
        },
      },
      { prop: 'submittedAt', label: t('field.submittedAt'), width: 170, slot: (v: string) => formatTime(v) },
      {
        prop: 'reviewedAt',
        label: t('field.reviewedAt'),
        width: 170,
        show: false,
        slot: (v: string | null) => formatTime(v),
      },
    ],
    operations: [
      {
        ...manage,
        key: 'confirm',
        label: t('review.confirmOk'),
        handler: askConfirm,
        testId: (row) => `offline-review-confirm-${row.id}`,
      },
      {
        ...manage,
        key: 'reject',
        label: t('review.reject'),
        danger: true,
        handler: (row) => setRejecting(row),
        testId: (row) => `offline-review-reject-${row.id}`,
      },
    ],
  });

  return (
    <ListPage
      list={list}
      bare
      testId="offline-review"
      testPrefix="offline-review"
      rowTestId={(row) => `offline-review-row-${row.id}`}
      empty={t('review.empty')}
      failed={{ description: t('load.failed'), retryLabel: t('action.retry') }}
      showTotal={(total) => t('review.total', { count: total })}
    >
      <RejectDialog row={rejecting} onClose={() => setRejecting(null)} />
    </ListPage>
  );
}

export default OfflineReviewPanel;
