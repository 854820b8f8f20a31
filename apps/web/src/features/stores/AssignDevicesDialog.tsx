import type { Store } from '@marquee/protocol';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { FormDialog } from '../../components/FormDialog';
import { DeviceSelect } from '../../components/pickers/DevicePicker';

interface Values {
  deviceIds: string[];
}

/**
 * Places devices in a store (searched by name or number among the devices the user sees).
 * A device stands in one store: placing it here takes it out of its previous one, and it
 * takes the store's address and point.
 */
export function AssignDevicesDialog({ store, onClose }: { store: Store | null; onClose: () => void }) {
  const { t } = useTranslation('stores');
  return (
    <FormDialog<Values>
      open={store !== null}
      title={t('assign.title', { name: store?.name ?? '' })}
      onClose={onClose}
      submit={(v) => call('storeAssignDevices', { storeId: store?.id ?? null, deviceIds: v.deviceIds })}
      success={t('assign.done')}
      // The devices moved: the device map (geo) counts them in their new region.
      invalidates={['stores', 'geo', 'devices']}
      onDone={onClose}
      okText={t('dialog.save')}
      cancelText={t('dialog.cancel')}
      submitTestId="store-assign-submit"
      testId="store-assign-dialog"
    >
      <Form.Item
        name="deviceIds"
        label={t('assign.devices')}
        extra={t('assign.hint')}
        rules={[{ required: true, message: t('assign.required') }]}
      >
        <DeviceSelect
          mode="multiple"
          enabled={store !== null}
          notFound={t('assign.noDevices')}
          placeholder={t('assign.placeholder')}
          testId="store-assign-devices"
        />
      </Form.Item>
    </FormDialog>
  );
}
