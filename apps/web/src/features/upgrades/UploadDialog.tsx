import { UploadOutlined } from '@ant-design/icons';
import { formatSize, UPGRADE_KINDS, type UpgradeKind, type UpgradePackageRow } from '@marquee/protocol';
import { App, Button, Form, Input, Progress, Radio, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/FormDialog';
import { StorageRefused } from '../../components/upload';
import { maxLengthRule, requiredRule } from '../../components/zodRule';
import { packageProblem, uploadPackage } from './upgradeUpload';

interface Values {
  kind: UpgradeKind;
  version: string;
  deviceType: string;
  notes: string;
}

/**
 * Uploads a package: its kind, version, device type and notes, and its file (progress shown);
 * the server then reads it back and computes its size and SHA-256 (the toast says them).
 */
export function UploadDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation(['upgrades', 'common']);
  const { message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const close = () => {
    setFile(null);
    setProgress(null);
    onClose();
  };
  return (
    <FormDialog<Values>
      open={open}
      title={t('package.upload')}
      onClose={close}
      width={560}
      initialValues={{ kind: 'apk', version: '', deviceType: '', notes: '' }}
      canSubmit={() => {
        if (!file) void message.error(t('package.fileRequired'));
        return Boolean(file);
      }}
      submit={async (v) => {
        if (!file) return;
        setProgress(0);
        try {
          const row = await uploadPackage(
            { kind: v.kind, version: v.version.trim(), deviceType: v.deviceType.trim(), notes: v.notes.trim() },
            file,
            i18n.language,
            setProgress,
          );
          setFile(null);
          return row;
        } catch (e) {
          if (e instanceof StorageRefused) void message.error(e.message);
          throw e;
        } finally {
          setProgress(null);
        }
      }}
      success={(answer) => {
        const row = answer as UpgradePackageRow;
        return t('package.verified', { size: formatSize(row.size), sha: `${row.sha256.slice(0, 12)}…` });
      }}
      invalidates={['upgrades']}
      okText={t('package.uploadOk')}
      cancelText={t('common:action.cancel')}
      testId="upgrade-upload-form"
      submitTestId="upgrade-upload-submit"
    >
      <Form.Item name="kind" label={t('field.kind')}>
        <Radio.Group
          options={UPGRADE_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
          data-testid="upgrade-upload-kind"
        />
      </Form.Item>
      <Form.Item name="version" label={t('field.version')} rules={[requiredRule(t), maxLengthRule(t, 64)]}>
        <Input maxLength={64} placeholder="2.1.0" data-testid="upgrade-upload-version" />
      </Form.Item>
      <Form.Item
        name="deviceType"
        label={t('field.deviceType')}
        extra={t('field.deviceTypeHint')}
        rules={[maxLengthRule(t, 128)]}
      >
        <Input maxLength={128} data-testid="upgrade-upload-device-type" />
      </Form.Item>
      <Form.Item name="notes" label={t('field.notes')} rules={[maxLengthRule(t, 1000)]}>
        <Input.TextArea rows={2} maxLength={1000} data-testid="upgrade-upload-notes" />
      </Form.Item>
      <Form.Item label={t('field.file')} required extra={file ? file.name : t('field.fileHint')}>
        <Upload
          showUploadList={false}
          beforeUpload={(picked) => {
            const problem = packageProblem(picked);
            if (problem) void message.error(t(`package.${problem}`));
            else setFile(picked as unknown as File);
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} disabled={progress !== null} data-testid="upgrade-upload-file">
            {file ? t('field.fileChange') : t('field.fileChoose')}
          </Button>
        </Upload>
        {progress !== null ? <Progress percent={progress} size="small" data-testid="upgrade-upload-progress" /> : null}
      </Form.Item>
    </FormDialog>
  );
}
