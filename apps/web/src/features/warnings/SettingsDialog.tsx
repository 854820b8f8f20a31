import { WARNING_KINDS, type WarningKind } from '@marquee/protocol';
import { App, Form, Modal, Select, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation, useCallQuery } from '../../api/queries';

/**
 * The notification settings: per kind of warning, the accounts of the enterprise that get a
 * station letter and a message (SMS to their phone, e-mail to their address) when one opens.
 */
export function SettingsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('warnings');
  const { message } = App.useApp();
  const settings = useCallQuery('warningsSettings', {}, { enabled: open });
  const save = useCallMutation('warningsSettingsSave');
  const [form] = Form.useForm<Record<WarningKind, string[]>>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (open && settings.data)
      form.setFieldsValue(
        Object.fromEntries(settings.data.recipients.map((r) => [r.kind, r.accountIds])) as Record<
          WarningKind,
          string[]
        >,
      );
  }, [open, settings.data, form]);

  const options = (settings.data?.accounts ?? []).map((a) => ({
    value: a.id,
    label: `${a.name}${a.phone || a.email ? '' : ` (${t('settings.unreachable')})`}`,
  }));

  const submit = async () => {
    const values = await form.validateFields();
    const before = new Map(settings.data?.recipients.map((r) => [r.kind, r.accountIds]) ?? []);
    setSaving(true);
    try {
      for (const kind of WARNING_KINDS) {
        const next = values[kind] ?? [];
        const prev = before.get(kind) ?? [];
        if (next.length === prev.length && next.every((id) => prev.includes(id))) continue;
        await save.mutateAsync({ kind, accountIds: next });
      }
      message.success(t('settings.saved'));
      await settings.refetch();
      onClose();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('settings.title')}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('settings.save')}
      cancelText={t('settings.cancel')}
      confirmLoading={saving}
      width={640}
      destroyOnHidden
      data-testid="warnings-settings"
    >
      <p>{t('settings.intro')}</p>
      {settings.isLoading ? (
        <Spin />
      ) : (
        <Form form={form} layout="horizontal" labelCol={{ span: 8 }} wrapperCol={{ span: 16 }}>
          {WARNING_KINDS.map((kind) => (
            <Form.Item
              key={kind}
              name={kind}
              label={t(`kind.${kind}`)}
              rules={[{ type: 'array', max: 50, message: t('settings.tooMany') }]}
            >
              <Select
                mode="multiple"
                allowClear
                options={options}
                optionFilterProp="label"
                placeholder={t('settings.nobody')}
                data-testid={`warnings-settings-${kind}`}
              />
            </Form.Item>
          ))}
        </Form>
      )}
    </Modal>
  );
}
