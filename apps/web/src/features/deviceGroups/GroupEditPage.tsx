import { DEVICE_GROUP_REMARK_MAX, deviceGroupNameSchema } from '@marquee/protocol';
import { Alert, Button, Card, Form, Input, Skeleton, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useCallMutation, useCallQuery } from '../../api/queries';
import { useFormName } from '../../components/formName';
import { DeviceTransfer } from '../../components/pickers/DevicePicker';
import { requiredRule, zodRule } from '../../components/zodRule';

interface Values {
  name: string;
  remark?: string;
}

/**
 * Add or edit a device group (/device/group/addView, `?id=` to edit): name and remark with the
 * server's rules, and its devices picked in a searchable transfer. Saving sets the group's
 * visible devices to exactly those picked, then returns to the list.
 */
export default function GroupEditPage() {
  const { t } = useTranslation(['deviceGroups', 'validation']);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id');
  const [form] = Form.useForm<Values>();
  const formName = useFormName('device-group');
  const [deviceIds, setDeviceIds] = useState<string[]>([]);

  const detail = useCallQuery('deviceGroupDetail', { id: id ?? '' }, { enabled: Boolean(id) });
  useEffect(() => {
    if (detail.data) {
      form.setFieldsValue({ name: detail.data.name, remark: detail.data.remark });
      setDeviceIds(detail.data.devices.map((d) => d.id));
    }
  }, [detail.data, form]);
  useEffect(() => {
    if (!id) {
      form.resetFields();
      setDeviceIds([]);
    }
  }, [id, form]);

  // The devices' group shows in the device list.
  const done = { invalidates: ['devices'] as const, onSuccess: () => navigate('/device/group') };
  const create = useCallMutation('deviceGroupCreate', { ...done, success: t('toast.created') });
  const update = useCallMutation('deviceGroupUpdate', { ...done, success: t('toast.updated') });
  const save = id ? update : create;
  const submit = (v: Values) => {
    const fields = { name: v.name.trim(), remark: v.remark?.trim() ?? '', deviceIds };
    if (id) update.mutate({ id, ...fields });
    else create.mutate(fields);
  };

  if (id && detail.isPending) return <Skeleton active />;
  if (id && detail.isError) return <Alert type="error" showIcon title={t('form.notFound')} />;
  return (
    <div className="mq-view" data-testid="device-group-edit">
      <Card title={t(id ? 'form.editTitle' : 'form.addTitle')}>
        <Form<Values>
          form={form}
          name={formName}
          layout="vertical"
          onFinish={submit}
          disabled={save.isPending}
          style={{ maxWidth: 780 }}
        >
          <Form.Item name="name" label={t('form.name')} rules={[requiredRule(t), zodRule(deviceGroupNameSchema, t)]}>
            <Input placeholder={t('form.namePlaceholder')} data-testid="group-form-name" />
          </Form.Item>
          <Form.Item name="remark" label={t('form.remark')}>
            <Input.TextArea maxLength={DEVICE_GROUP_REMARK_MAX} rows={2} data-testid="group-form-remark" />
          </Form.Item>
          <Form.Item label={t('form.devices')} extra={t('form.devicesHint')}>
            <DeviceTransfer
              value={deviceIds}
              onChange={setDeviceIds}
              known={detail.data?.devices}
              testId="group-form-devices"
            />
          </Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="group-form-save">
              {t('form.save')}
            </Button>
            <Button onClick={() => navigate('/device/group')} data-testid="group-form-cancel">
              {t('form.cancel')}
            </Button>
          </Space>
          <Typography.Paragraph />
        </Form>
      </Card>
    </div>
  );
}
