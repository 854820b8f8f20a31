import type { IotCard } from '@marquee/protocol';
import { Form, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { FormDialog } from '../../components/FormDialog';
import { DeviceSelect } from '../../components/pickers/DevicePicker';

/**
 * Binds a card to a device, or moves it to another (the device picker searches the devices the
 * caller sees; a device holds one card, the server refuses a second with CONFLICT).
 */
export function BindDialog({ card, onClose }: { card: IotCard | null; onClose: () => void }) {
  const { t } = useTranslation('flow');
  const known = card?.deviceId ? [{ id: card.deviceId, name: card.deviceName ?? card.deviceId }] : [];
  return (
    <FormDialog<{ deviceId: string }>
      open={card !== null}
      title={card?.deviceId ? t('bind.changeTitle') : t('bind.title')}
      onClose={onClose}
      submit={(v) => call('flowCardBind', { id: card?.id ?? '', deviceId: v.deviceId })}
      success={t('bind.done')}
      invalidates={['flow', 'devices']}
      values={card?.deviceId ? { deviceId: card.deviceId } : undefined}
      okText={t('dialog.save')}
      cancelText={t('dialog.cancel')}
      submitTestId="flow-bind-submit"
      testId="flow-bind-form"
    >
      <Typography.Paragraph>
        {t('bind.card')} <Typography.Text className="mq-flow-mono">{card?.iccid}</Typography.Text>
      </Typography.Paragraph>
      <Form.Item
        name="deviceId"
        label={t('col.device')}
        rules={[{ required: true, message: t('bind.deviceRequired') }]}
      >
        <DeviceSelect
          testId="flow-bind-device"
          enabled={card !== null}
          known={known}
          allowClear
          placeholder={t('bind.devicePlaceholder')}
          notFound={t('bind.noDevice')}
          style={{ width: '100%' }}
        />
      </Form.Item>
    </FormDialog>
  );
}
