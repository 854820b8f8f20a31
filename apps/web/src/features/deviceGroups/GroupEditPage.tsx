import { DEVICE_GROUP_REMARK_MAX, deviceGroupNameSchema, type MemberDevice } from '@marquee/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, Skeleton, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { call } from '../../api/client';
import { useFormName } from '../../components/formName';
import { requiredRule, zodRule } from '../../components/zodRule';
import { DevicePicker } from './DevicePicker';

interface Values {
  name: string;
  remark?: string;
}

const NO_DEVICES: MemberDevice[] = [];

/**
 * Add or edit a device group (/device/group/addView, `?id=` to edit): name and remark with the
 * server's rules, and its devices picked in a searchable transfer. Saving sets the group's
 * visible devices to exactly those picked, then returns to the list.
 */
export default function GroupEditPage() {
  const { t } = useTranslation(['deviceGroups', 'validation']);
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const id = params.get('id');
  const [form] = Form.useForm<Values>();
  const formName = useFormName('device-group');
  const [deviceIds, setDeviceIds] = useState<string[]>([]);

  const detail = useQuery({
    queryKey: ['deviceGroups', 'detail', id],
    queryFn: () => call('deviceGroupDetail', { id: id ?? '' }),
    enabled: Boolean(id),
  });
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

  const save = useMutation({
    mutationFn: (v: Values) => {
      const fields = { name: v.name.trim(), remark: v.remark?.trim() ?? '', deviceIds };
      return id ? call('deviceGroupUpdate', { id, ...fields }) : call('deviceGroupCreate', fields);
    },
    onSuccess: () => {
      void message.success(t(id ? 'toast.updated' : 'toast.created'));
      void queryClient.invalidateQueries({ queryKey: ['deviceGroups'] });
      navigate('/device/group');
    },
  });

  if (id && detail.isPending) return <Skeleton active />;
  if (id && detail.isError) return <Alert type="error" showIcon title={t('form.notFound')} />;
  return (
    <div className="mq-view" data-testid="device-group-edit">
      <Card title={t(id ? 'form.editTitle' : 'form.addTitle')}>
        <Form<Values>
          form={form}
          name={formName}
          layout="vertical"
          onFinish={(v) => save.mutate(v)}
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
            <DevicePicker
              value={deviceIds}
              onChange={setDeviceIds}
              known={detail.data?.devices ?? NO_DEVICES}
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
