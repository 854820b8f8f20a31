import type { ContractChannel, ContractKind } from '@marquee/protocol';
import { Form, Radio, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useCallQuery } from '../../api/queries';
import { FormDialog } from '../../components/FormDialog';

export interface DrawSubject {
  kind: ContractKind;
  id: string;
  /** The order's or price contract's number, for the title. */
  no: string;
}

interface Values {
  channel: ContractChannel;
}

/**
 * Draws up the contract of an order or a price contract (sales.contractCreate): signed inside
 * the product, or sent to the e-signature provider — offered only when one is configured
 * (ESIGN_URL), else shown disabled with the reason. `onDrawn` gets the new contract's number.
 */
export function ContractDrawDialog({
  subject,
  onClose,
  onDrawn,
}: {
  subject: DrawSubject | null;
  onClose: () => void;
  onDrawn?: (no: string) => void;
}) {
  const { t } = useTranslation('contracts');
  const settings = useCallQuery('salesSettings', {}, { enabled: subject !== null, staleTime: 60_000 });
  const esign = settings.data?.esignConfigured === true;
  return (
    <FormDialog<Values>
      open={subject !== null}
      title={t('draw.title', { no: subject?.no ?? '' })}
      onClose={onClose}
      width={520}
      initialValues={{ channel: 'internal' }}
      submit={async (v) => {
        const c = await call('salesContractCreate', {
          kind: subject?.kind ?? 'order',
          subjectId: subject?.id ?? '',
          channel: v.channel,
        });
        onDrawn?.(c.no);
        return c;
      }}
      success={(c) => t('draw.done', { no: (c as { no: string }).no })}
      invalidates={['sales']}
      okText={t('draw.submit')}
      cancelText={t('cancel')}
      testId="contract-draw-form"
      submitTestId="contract-draw-submit"
    >
      <Typography.Paragraph type="secondary">{t('draw.hint')}</Typography.Paragraph>
      <Form.Item name="channel" label={t('draw.channel')}>
        <Radio.Group>
          <Space orientation="vertical">
            <Radio value="internal" data-testid="contract-draw-internal">
              {t('contract.channels.internal')}
              <Typography.Text type="secondary"> — {t('draw.internalHint')}</Typography.Text>
            </Radio>
            <Radio value="esign" disabled={!esign} data-testid="contract-draw-esign">
              {t('contract.channels.esign')}
              <Typography.Text type="secondary"> — {esign ? t('draw.esignHint') : t('draw.esignOff')}</Typography.Text>
            </Radio>
          </Space>
        </Radio.Group>
      </Form.Item>
    </FormDialog>
  );
}
