import { type AlarmRegion, type Endpoints, MAX_ALARM_CONTACTS, type Req } from '@marquee/protocol';
import type { ButtonProps } from 'antd';
import { Button, Form, Input, Modal, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation } from '../../api/queries';
import { AddButton } from '../../components/AddButton';
import { timeColumn } from '../../components/columns';
import { ListPage, useListPage } from '../../components/listPage';
import { DeviceSelect } from '../../components/pickers/DevicePicker';

interface RegionForm {
  name: string;
  deviceIds: string[];
  regionCodes: string;
  contacts: { name: string; phone: string; email?: string }[];
}

/**
 * /alarm/setting (issue 30): the enterprise's alarm regions with their contacts (at most 10,
 * name and phone required: spec section 5). A region covers devices drawn in by hand and/or
 * province, city or district codes.
 */
export default function AlarmSettingPage() {
  const { t } = useTranslation('alarms');
  const [editing, setEditing] = useState<AlarmRegion | 'new' | null>(null);
  const remove = useCallMutation('alarmRegionDelete', { success: t('region.deleted') });
  const list = useListPage({
    id: 'alarmRegions',
    endpoint: 'alarmRegionList',
    filters: [{ key: 'keyword', label: t('region.name'), width: 200, maxLength: 64 }],
    request: (filters) => ({ ...filters }) as Req<Endpoints['alarmRegionList']>,
    columns: [
      { prop: 'name', label: t('region.name'), width: 180, ellipsis: true },
      {
        prop: 'devices',
        label: t('region.devices'),
        width: 240,
        ellipsis: true,
        slot: (v: AlarmRegion['devices'], row: AlarmRegion) =>
          [...v.map((d) => d.name), ...row.regionCodes].join(', ') || '—',
      },
      {
        prop: 'contacts',
        label: t('region.contacts'),
        width: 260,
        slot: (v: AlarmRegion['contacts']) => (
          <Space size={4} wrap>
            {v.map((c) => (
              <Tag key={`${c.name}${c.phone}`}>{`${c.name} ${c.phone}`}</Tag>
            ))}
          </Space>
        ),
      },
      timeColumn<AlarmRegion>('updatedAt', t('region.updatedAt')),
    ],
    operations: [
      {
        key: 'edit',
        label: t('region.edit'),
        handler: (row: AlarmRegion) => setEditing(row),
        testId: () => 'alarm-region-edit',
      },
      {
        key: 'delete',
        label: t('region.delete'),
        danger: true,
        testId: () => 'alarm-region-delete',
        handler: (row: AlarmRegion) =>
          Modal.confirm({
            title: t('region.deleteConfirm', { name: row.name }),
            okButtonProps: { danger: true },
            onOk: () => remove.mutateAsync({ id: row.id }),
          }),
      },
    ],
  });
  return (
    <>
      <ListPage
        list={list}
        title={t('region.title')}
        testPrefix="alarm-regions"
        toolbar={
          <AddButton
            notForMonitor
            onClick={() => setEditing('new')}
            testId="alarm-region-add"
            label={t('region.add')}
          />
        }
        rowTestId={(row) => `alarm-region-row-${row.id}`}
        empty={t('region.empty')}
        showTotal={(total) => t('total', { count: total })}
      />
      {editing && <RegionDialog region={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}

function RegionDialog({ region, onClose }: { region: AlarmRegion | null; onClose: () => void }) {
  const { t } = useTranslation('alarms');
  const [form] = Form.useForm<RegionForm>();
  const save = useCallMutation('alarmRegionSave', { success: t('region.saved'), onSuccess: onClose });
  const submit = (v: RegionForm) =>
    save.mutate({
      id: region?.id,
      name: v.name,
      deviceIds: v.deviceIds ?? [],
      regionCodes: (v.regionCodes ?? '')
        .split(/[\s,，]+/)
        .map((s) => s.trim())
        .filter(Boolean),
      contacts: (v.contacts ?? []).map((c) => ({ name: c.name, phone: c.phone, email: c.email ?? '' })),
    });
  return (
    <Modal
      open
      title={region ? t('region.edit') : t('region.add')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      width={640}
      okButtonProps={{ 'data-testid': 'alarm-region-ok' } as ButtonProps}
    >
      <Form<RegionForm>
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{
          name: region?.name ?? '',
          deviceIds: region?.deviceIds ?? [],
          regionCodes: region?.regionCodes.join(', ') ?? '',
          contacts: region?.contacts ?? [{ name: '', phone: '', email: '' }],
        }}
      >
        <Form.Item
          name="name"
          label={t('region.name')}
          rules={[{ required: true, whitespace: true, message: t('v.name') }, { max: 30 }]}
        >
          <Input maxLength={30} data-testid="alarm-region-name" />
        </Form.Item>
        <Form.Item name="deviceIds" label={t('region.devices')}>
          <DeviceSelect mode="multiple" testId="alarm-region-devices" known={region?.devices} />
        </Form.Item>
        <Form.Item name="regionCodes" label={t('region.codes')} extra={t('region.codesHint')}>
          <Input data-testid="alarm-region-codes" />
        </Form.Item>
        <Form.List
          name="contacts"
          rules={[
            {
              validator: async (_, v?: unknown[]) => {
                if (!v || v.length < 1) throw new Error(t('v.contactsMin'));
                if (v.length > MAX_ALARM_CONTACTS) throw new Error(t('v.contactsMax', { max: MAX_ALARM_CONTACTS }));
              },
            },
          ]}
        >
          {(fields, { add, remove }, { errors }) => (
            <>
              <div style={{ marginBottom: 8 }}>{t('region.contacts')}</div>
              {fields.map((f) => (
                <Space key={f.key} align="start" data-testid="alarm-contact">
                  <Form.Item
                    name={[f.name, 'name']}
                    rules={[{ required: true, whitespace: true, message: t('v.contactName') }]}
                  >
                    <Input placeholder={t('contact.name')} maxLength={30} aria-label={t('contact.name')} />
                  </Form.Item>
                  <Form.Item
                    name={[f.name, 'phone']}
                    rules={[
                      { required: true, whitespace: true, message: t('v.contactPhone') },
                      { pattern: /^\+?[\d\s-]{5,20}$/, message: t('v.phone') },
                    ]}
                  >
                    <Input placeholder={t('contact.phone')} maxLength={20} aria-label={t('contact.phone')} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'email']} rules={[{ type: 'email', message: t('v.email') }]}>
                    <Input placeholder={t('contact.email')} aria-label={t('contact.email')} />
                  </Form.Item>
                  <Button onClick={() => remove(f.name)} aria-label={t('contact.remove')}>
                    −
                  </Button>
                </Space>
              ))}
              <Button
                type="dashed"
                disabled={fields.length >= MAX_ALARM_CONTACTS}
                onClick={() => add({ name: '', phone: '', email: '' })}
                data-testid="alarm-contact-add"
              >
                {t('contact.add', { used: fields.length, max: MAX_ALARM_CONTACTS })}
              </Button>
              <Form.ErrorList errors={errors} />
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
