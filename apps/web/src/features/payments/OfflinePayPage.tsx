import { UploadOutlined } from '@ant-design/icons';
import {
  type Endpoints,
  formatFen,
  formatTime,
  type OfflinePayment,
  type PayOrder,
  type Req,
  type Res,
  VOUCHER_MAX_BYTES,
  VOUCHERS_MAX,
} from '@marquee/protocol';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  DatePicker,
  Descriptions,
  Form,
  Input,
  Result,
  Skeleton,
  Space,
  Tag,
  Typography,
  Upload,
  type UploadProps,
} from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { call } from '../../api/client';
import { domainKey, useCallQuery } from '../../api/queries';
import { LinkButton } from '../../components/LinkButton';
import { maxLengthRule, requiredRule } from '../../components/zodRule';
import { OrderLoading, OrderMissing, OrderSummary, orderIdOf } from './OrderSummary';
import {
  FINANCE_HOME,
  FINANCE_MOVEMENTS,
  OFFLINE_STATE_COLORS,
  payPath,
  type VoucherFile,
  voucherIdsOf,
  voucherProblem,
} from './payLogic';
import { VoucherList } from './VoucherList';
import { uploadVoucher, VoucherUploadError } from './vouchers';
import './payments.css';

type Info = Res<Endpoints['paymentInfo']>;

interface Values {
  payerName: string;
  bankName?: string;
  bankAccount?: string;
  transferNo: string;
  transferredAt: Dayjs;
  remark?: string;
  vouchers: VoucherFile[];
}

const ACCEPT = '.png,.jpg,.jpeg,.pdf,image/png,image/jpeg,application/pdf';

/** The platform's account to transfer to, and the remark the transfer must carry (the order number). */
function ReceivingAccount({ order }: { order: PayOrder }) {
  const { t, i18n } = useTranslation('payments');
  const providers = useCallQuery('paymentProviders', {}, { silent: true, staleTime: 60_000 });
  const account = providers.data?.offlineAccount ?? null;
  return (
    <Card size="small" title={t('offline.accountTitle')} data-testid="offline-receiving">
      {providers.isPending ? (
        <Skeleton active title={false} paragraph={{ rows: 3 }} />
      ) : account ? null : (
        <Alert type="warning" showIcon className="mq-pay-note" title={t('offline.accountMissing')} />
      )}
      <Descriptions column={1} size="small">
        {account ? (
          <>
            <Descriptions.Item label={t('offline.accountName')}>
              <Typography.Text copyable>{account.accountName}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('offline.accountBank')}>
              <Typography.Text copyable>{account.bankName}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('offline.accountNo')}>
              <Typography.Text copyable data-testid="offline-receiving-no">
                {account.accountNo}
              </Typography.Text>
            </Descriptions.Item>
          </>
        ) : null}
        <Descriptions.Item label={t('offline.amountToTransfer')}>
          <Typography.Text strong copyable={{ text: formatFen(order.amount, i18n.language, { symbol: false }) }}>
            {formatFen(order.amount, i18n.language)}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('offline.remarkToUse')}>
          <Typography.Text code copyable data-testid="offline-remark-no">
            {order.no}
          </Typography.Text>
        </Descriptions.Item>
      </Descriptions>
      <Typography.Paragraph type="secondary" className="mq-pay-fineprint">
        {t('offline.remarkHint')}
      </Typography.Paragraph>
    </Card>
  );
}

/** A submitted transfer: what was declared, its vouchers and its state (under review, confirmed, rejected). */
function Submission({ offline }: { offline: OfflinePayment }) {
  const { t, i18n } = useTranslation('payments');
  return (
    <Card
      size="small"
      title={t('offline.submissionTitle')}
      data-testid="offline-submission"
      extra={
        <Tag color={OFFLINE_STATE_COLORS[offline.state]} data-testid="offline-state" data-state={offline.state}>
          {t(`offlineState.${offline.state}`)}
        </Tag>
      }
    >
      {offline.state === 'rejected' ? (
        <Alert
          type="error"
          showIcon
          className="mq-pay-note"
          title={t('offline.rejected')}
          description={<span data-testid="offline-reason">{offline.reason}</span>}
        />
      ) : offline.state === 'submitted' ? (
        <Alert type="info" showIcon className="mq-pay-note" title={t('offline.underReview')} />
      ) : null}
      <Descriptions column={{ xs: 1, sm: 1, md: 2 }} size="small">
        <Descriptions.Item label={t('field.amount')}>{formatFen(offline.amount, i18n.language)}</Descriptions.Item>
        <Descriptions.Item label={t('field.payerName')}>{offline.payerName}</Descriptions.Item>
        <Descriptions.Item label={t('field.bankName')}>{offline.bankName || '-'}</Descriptions.Item>
        <Descriptions.Item label={t('field.bankAccount')}>{offline.bankAccount || '-'}</Descriptions.Item>
        <Descriptions.Item label={t('field.transferNo')}>{offline.transferNo}</Descriptions.Item>
        <Descriptions.Item label={t('field.transferredAt')}>{formatTime(offline.transferredAt)}</Descriptions.Item>
        <Descriptions.Item label={t('field.submittedAt')}>{formatTime(offline.submittedAt)}</Descriptions.Item>
        {offline.reviewedAt ? (
          <Descriptions.Item label={t('field.reviewedAt')}>{formatTime(offline.reviewedAt)}</Descriptions.Item>
        ) : null}
        {offline.remark ? <Descriptions.Item label={t('field.remark')}>{offline.remark}</Descriptions.Item> : null}
        <Descriptions.Item label={t('field.vouchers')}>
          <VoucherList vouchers={offline.vouchers} testId="offline-vouchers" />
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

/** The voucher picker (the form item's control): a list of images and PDFs, each uploaded when chosen. */
function VoucherUpload({
  fileList,
  onChange,
  beforeUpload,
  customRequest,
  label,
  disabled,
}: {
  fileList?: VoucherFile[];
  onChange?: UploadProps<{ voucherId: string }>['onChange'];
  beforeUpload: (file: File) => boolean | string;
  customRequest: UploadProps['customRequest'];
  label: string;
  disabled?: boolean;
}) {
  return (
    <div data-testid="offline-voucher">
      <Upload<{ voucherId: string }>
        accept={ACCEPT}
        multiple
        maxCount={VOUCHERS_MAX}
        listType="picture"
        fileList={fileList}
        onChange={onChange}
        beforeUpload={beforeUpload}
        customRequest={customRequest}
        disabled={disabled}
      >
        <Button icon={<UploadOutlined />} disabled={disabled} data-testid="offline-voucher-add">
          {label}
        </Button>
      </Upload>
    </div>
  );
}

/**
 * The form of a bank transfer with its vouchers: each voucher is uploaded when chosen
 * (payment.voucherApply, then the POST to storage, with its progress), then the transfer is
 * submitted for review with their ids.
 */
function TransferForm({
  order,
  previous,
  onDone,
}: {
  order: PayOrder;
  previous: OfflinePayment | null;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation(['payments', 'validation']);
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);

  const beforeUpload = (file: File) => {
    const problem = voucherProblem(file);
    if (problem) {
      void message.error(t(`voucher.${problem}`, { name: file.name, max: VOUCHER_MAX_BYTES / 1024 / 1024 }));
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const upload: UploadProps['customRequest'] = ({ file, onProgress, onSuccess, onError }) => {
    const f = file as File;
    uploadVoucher(order.id, f, i18n.language, (loaded) =>
      onProgress?.({ percent: f.size > 0 ? Math.min(99, Math.round((loaded / f.size) * 100)) : 0 }),
    )
      .then((voucherId) => onSuccess?.({ voucherId }))
      .catch((err: unknown) => {
        // The API client has toasted a refused call; a storage refusal is shown here.
        if (err instanceof VoucherUploadError) void message.error(t('voucher.failed', { reason: err.message }));
        onError?.(err instanceof Error ? err : new Error(String(err)));
      });
  };

  const submit = async (values: Values) => {
    const vouchers = voucherIdsOf(values.vouchers);
    if ('error' in vouchers) {
      if (vouchers.error === 'uploading') void message.warning(t('voucher.uploading'));
      return;
    }
    setBusy(true);
    try {
      const request: Req<Endpoints['paymentOfflineSubmit']> = {
        orderId: order.id,
        payerName: values.payerName.trim(),
        bankName: values.bankName?.trim() ?? '',
        bankAccount: values.bankAccount?.trim() ?? '',
        transferNo: values.transferNo.trim(),
        transferredAt: values.transferredAt.toISOString(),
        remark: values.remark?.trim() ?? '',
        voucherIds: vouchers.ids,
      };
      await call('paymentOfflineSubmit', request);
      void message.success(t('toast.submitted'));
      onDone();
    } catch {
      // the API client has shown why
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card size="small" title={previous ? t('offline.formAgain') : t('offline.formTitle')}>
      <Form<Values>
        form={form}
        name="offline-transfer"
        layout="vertical"
        className="mq-pay-form"
        data-testid="offline-form"
        disabled={busy}
        initialValues={{
          payerName: previous?.payerName ?? '',
          bankName: previous?.bankName ?? '',
          bankAccount: previous?.bankAccount ?? '',
          transferNo: '',
          remark: previous?.remark ?? '',
          vouchers: [],
        }}
        onFinish={(v) => void submit(v)}
      >
        <div className="mq-form-grid">
          <Form.Item
            name="payerName"
            label={t('field.payerName')}
            rules={[requiredRule(t), maxLengthRule(t, 60)]}
            extra={t('field.payerNameHint')}
          >
            <Input maxLength={60} autoComplete="organization" data-testid="offline-payer" />
          </Form.Item>
          <Form.Item name="bankName" label={t('field.bankName')} rules={[maxLengthRule(t, 60)]}>
            <Input maxLength={60} data-testid="offline-bank" />
          </Form.Item>
          <Form.Item name="bankAccount" label={t('field.bankAccount')} rules={[maxLengthRule(t, 40)]}>
            <Input maxLength={40} inputMode="numeric" data-testid="offline-account" />
          </Form.Item>
          <Form.Item
            name="transferNo"
            label={t('field.transferNo')}
            rules={[requiredRule(t), maxLengthRule(t, 64)]}
            extra={t('field.transferNoHint')}
          >
            <Input maxLength={64} data-testid="offline-transfer-no" />
          </Form.Item>
          <Form.Item
            name="transferredAt"
            label={t('field.transferredAt')}
            rules={[
              { required: true, message: t('required', { ns: 'validation' }) },
              {
                validator: async (_r, v: Dayjs | undefined) => {
                  if (v?.isAfter(dayjs().add(5, 'minute'))) throw new Error(t('field.transferredAtFuture'));
                },
              },
            ]}
          >
            <DatePicker
              showTime
              style={{ width: '100%' }}
              disabledDate={(d) => d.isAfter(dayjs().endOf('day'))}
              data-testid="offline-transferred-at"
            />
          </Form.Item>
          <Form.Item name="remark" label={t('field.remark')} rules={[maxLengthRule(t, 200)]}>
            <Input.TextArea maxLength={200} autoSize={{ minRows: 1, maxRows: 4 }} data-testid="offline-remark" />
          </Form.Item>
        </div>
        <Form.Item
          name="vouchers"
          label={t('field.vouchers')}
          valuePropName="fileList"
          getValueFromEvent={(e: { fileList: VoucherFile[] }) => e.fileList.slice(0, VOUCHERS_MAX)}
          rules={[
            {
              validator: async (_r, list: VoucherFile[] | undefined) => {
                const vouchers = voucherIdsOf(list);
                // One still on its way is waited for at submit, not flagged while it uploads.
                if ('error' in vouchers && vouchers.error !== 'uploading')
                  throw new Error(
                    vouchers.error === 'required'
                      ? t('voucherRequired', { ns: 'validation' })
                      : t(`voucher.${vouchers.error}`, { max: VOUCHERS_MAX }),
                  );
              },
            },
          ]}
          extra={t('voucher.hint', { max: VOUCHERS_MAX, size: VOUCHER_MAX_BYTES / 1024 / 1024 })}
        >
          <VoucherUpload beforeUpload={beforeUpload} customRequest={upload} label={t('voucher.add')} />
        </Form.Item>
        <Space wrap>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="offline-submit">
            {t('offline.submit')}
          </Button>
          <LinkButton to={payPath(order.id)} disabled={busy} data-testid="offline-back">
            {t('offline.back')}
          </LinkButton>
        </Space>
      </Form>
    </Card>
  );
}

/** What the page shows for an order that is paid or closed. */
function Final({ info }: { info: Info }) {
  const { t } = useTranslation('payments');
  const { order } = info;
  if (order.state === 'paid')
    return (
      <Result
        status="success"
        title={t('result.paid')}
        subTitle={order.method === 'offline' ? t('offline.confirmed') : undefined}
        data-testid="offline-result"
        extra={[
          <LinkButton key="finance" type="primary" to={FINANCE_MOVEMENTS} data-testid="pay-to-finance">
            {t('action.toMovements')}
          </LinkButton>,
        ]}
      />
    );
  return (
    <Result
      status="warning"
      title={t('result.closed')}
      subTitle={t('result.closedDetail')}
      data-testid="offline-result"
      extra={[
        <LinkButton key="finance" type="primary" to={FINANCE_HOME}>
          {t('action.toFinance')}
        </LinkButton>,
      ]}
    />
  );
}

/**
 * Offline payment (/payUnderline?id=<order>, alias /pay/underline): the platform's account to
 * transfer to with the order number as the transfer's remark, and the form that records the
 * bank transfer with its vouchers (1 to 5 images or PDFs of at most 10 MB, each uploaded to
 * storage first). Once submitted the order waits for the platform operator's review; a
 * rejected transfer shows why, and the form to submit it again.
 */
export default function OfflinePayPage() {
  const { t } = useTranslation('payments');
  const [params] = useSearchParams();
  const id = orderIdOf(params);
  const queryClient = useQueryClient();
  const info = useCallQuery('paymentInfo', { id }, { enabled: id !== '', silent: true });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: domainKey('payments') });
    void queryClient.invalidateQueries({ queryKey: domainKey('finance') });
  };

  let body: React.ReactNode;
  if (!id) body = <OrderMissing />;
  else if (info.isPending) body = <OrderLoading />;
  else if (info.isError || !info.data) body = <OrderMissing failed onRetry={() => void info.refetch()} />;
  else {
    const { order, offline, methods } = info.data;
    const offlineOption = methods.find((m) => m.method === 'offline');
    const canSubmit =
      order.state === 'unpaid' &&
      (offline === null || offline.state === 'rejected') &&
      offlineOption?.available !== false;
    body = (
      <>
        <OrderSummary order={order} />
        {order.state === 'paid' || order.state === 'closed' ? (
          <Final info={info.data} />
        ) : (
          <div className="mq-pay-columns">
            <ReceivingAccount order={order} />
            <div className="mq-pay-stack">
              {offline ? <Submission offline={offline} /> : null}
              {canSubmit ? (
                <TransferForm order={order} previous={offline} onDone={refresh} />
              ) : order.state === 'unpaid' && offline === null ? (
                <Alert
                  type="warning"
                  showIcon
                  title={t(`reason.${offlineOption?.reason ?? 'unavailable'}`, {
                    defaultValue: t('reason.unavailable'),
                  })}
                />
              ) : null}
            </div>
          </div>
        )}
      </>
    );
  }
  return (
    <div className="mq-view mq-pay" data-testid="offline-page">
      <Typography.Title level={4} className="mq-pay-title">
        {t('offline.pageTitle')}
      </Typography.Title>
      {body}
    </div>
  );
}
