import { Form, Radio } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { FormDialog } from '../../components/FormDialog';
import { DeviceTransfer } from '../../components/pickers/DevicePicker';
import { TagSelect } from '../../components/pickers/options';

interface Values {
  tagIds: string[];
  action: 'add' | 'remove';
}

/** Bulk tagging: the chosen devices gain (or lose) every chosen tag. */
export function BulkTagDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('deviceTags');
  const [deviceIds, setDeviceIds] = useState<string[]>([]);
  const [devicesError, setDevicesError] = useState(false);

  return (
    <FormDialog<Values>
      open={open}
      title={t('bulkTag.title')}
      width={860}
      onClose={() => {
        setDeviceIds([]);
        setDevicesError(false);
        onClose();
      }}
      initialValues={{ action: 'add' }}
      canSubmit={() => {
        setDevicesError(deviceIds.length === 0);
        return deviceIds.length > 0;
      }}
      submit={async (v) => {
        await call('deviceTagAssign', { tagIds: v.tagIds, action: v.action, deviceIds });
      }}
      success={t('bulkTag.done', { count: deviceIds.length })}
      invalidates={['deviceGroups', 'devices']}
      okText={t('bulkTag.submit')}
      cancelText={t('form.cancel')}
      submitTestId="bulk-tag-submit"
      testId="bulk-tag-dialog"
    >
      <Form.Item name="tagIds" label={t('bulkTag.tags')} rules={[{ required: true, message: t('required') }]}>
        <TagSelect enabled={open} testId="bulk-tag-tags" />
      </Form.Item>
      <Form.Item name="action" label={t('bulkTag.action')}>
        <Radio.Group
          options={[
            { value: 'add', label: t('bulkTag.add') },
            { value: 'remove', label: t('bulkTag.remove') },
          ]}
        />
      </Form.Item>
      <Form.Item
        label={t('bulkTag.devices')}
        required
        validateStatus={devicesError ? 'error' : undefined}
        help={devicesError ? t('bulkTag.devicesRequired') : undefined}
      >
        <DeviceTransfer value={deviceIds} onChange={setDeviceIds} testId="bulk-tag-devices" />
      </Form.Item>
    </FormDialog>
  );
}
