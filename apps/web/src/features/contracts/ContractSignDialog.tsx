import type { Contract } from '@marquee/protocol';
import { Alert, Button, Checkbox, Descriptions, Form, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, download } from '../../api/client';
import { FormDialog } from '../../components/FormDialog';
import { useSession } from '../../session/session';

/** Bytes as people read a file's size (KB from 1 KB, MB from 1 MB). */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

interface Values {
  agreed: boolean;
}

/**
 * Signs a contract inside the product (sales.contractSign): the document's number, title,
 * advertiser and size, its SHA-256 (what is signed: the server refuses when the document
 * changed since), a download to read it first, and the signer's agreement. Signer, time and
 * hash are then fixed.
 */
export function ContractSignDialog({ contract, onClose }: { contract: Contract | null; onClose: () => void }) {
  const { t } = useTranslation(['contracts', 'validation']);
  const me = useSession((s) => s.userName || s.loginName);
  const [reading, setReading] = useState(false);
  const read = () => {
    if (!contract) return;
    setReading(true);
    download('salesContractDownload', { id: contract.id }, { fallbackName: `${contract.no}.pdf` }).finally(() =>
      setReading(false),
    );
  };

  return (
    <FormDialog<Values>
      open={contract !== null}
      title={t('sign.title', { no: contract?.no ?? '' })}
      onClose={onClose}
      width={620}
      initialValues={{ agreed: false }}
      submit={() => call('salesContractSign', { id: contract?.id ?? '', sha256: contract?.sha256 ?? '' })}
      success={t('sign.done')}
      invalidates={['sales']}
      okText={t('sign.submit')}
      cancelText={t('cancel')}
      testId="contract-sign-form"
      submitTestId="contract-sign-submit"
    >
      {contract ? (
        <>
          <Descriptions size="small" bordered column={1} style={{ marginBottom: 16 }}>
            <Descriptions.Item label={t('contract.titleColumn')}>{contract.title}</Descriptions.Item>
            <Descriptions.Item label={t('contract.advertiser')}>{contract.advertiserName}</Descriptions.Item>
            <Descriptions.Item label={t('contract.subject')}>{contract.subjectNo}</Descriptions.Item>
            <Descriptions.Item label={t('contract.size')}>{fileSize(contract.bytes)}</Descriptions.Item>
            <Descriptions.Item label={t('sign.hash')}>
              <Typography.Text code copyable style={{ wordBreak: 'break-all' }} data-testid="contract-sign-hash">
                {contract.sha256}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
          <Alert type="info" showIcon title={t('sign.hashHint')} style={{ marginBottom: 12 }} />
          <Button onClick={read} loading={reading} style={{ marginBottom: 12 }} data-testid="contract-sign-read">
            {t('sign.read')}
          </Button>
          <Form.Item
            name="agreed"
            valuePropName="checked"
            rules={[
              {
                validator: async (_r, v) => {
                  if (!v) throw new Error(t('sign.mustAgree'));
                },
              },
            ]}
          >
            <Checkbox data-testid="contract-sign-agree">{t('sign.agree', { name: me })}</Checkbox>
          </Form.Item>
        </>
      ) : null}
    </FormDialog>
  );
}
