import { tagNameSchema } from '@marquee/protocol';
import { Alert, Button, Card, Form, Input, Select, Skeleton, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useCallMutation, useCallQuery } from '../../api/queries';
import { useFormName } from '../../components/formName';
import { DeviceTransfer } from '../../components/pickers/DevicePicker';
import { requiredRule, zodRule } from '../../components/zodRule';

interface Values {
  name: string;
  categoryId: string;
}

/**
 * Add or edit a tag (/device/tag/addView, `?id=` to edit, `?categoryId=` to preset the
 * category): name, category and the devices carrying it, picked in a searchable transfer.
 */
export default function TagEditPage() {
  const { t } = useTranslation(['deviceTags', 'deviceGroups', 'validation']);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id');
  const presetCategory = params.get('categoryId') ?? undefined;
  const [form] = Form.useForm<Values>();
  const formName = useFormName('device-tag');
  const [deviceIds, setDeviceIds] = useState<string[]>([]);

  const categories = useCallQuery('tagCategoryList', {});
  const detail = useCallQuery('deviceTagDetail', { id: id ?? '' }, { enabled: Boolean(id) });
  useEffect(() => {
    if (detail.data) {
      form.setFieldsValue({ name: detail.data.name, categoryId: detail.data.categoryId });
      setDeviceIds(detail.data.devices.map((d) => d.id));
    }
  }, [detail.data, form]);
  useEffect(() => {
    if (!id) {
      form.resetFields();
      if (presetCategory) form.setFieldValue('categoryId', presetCategory);
      setDeviceIds([]);
    }
  }, [id, presetCategory, form]);

  // The devices' tags show in the device list.
  const done = { invalidates: ['devices'] as const, onSuccess: () => navigate('/device/tags') };
  const create = useCallMutation('deviceTagCreate', { ...done, success: t('toast.created') });
  const update = useCallMutation('deviceTagUpdate', { ...done, success: t('toast.updated') });
  const save = id ? update : create;
  const submit = (v: Values) => {
    const fields = { name: v.name.trim(), categoryId: v.categoryId, deviceIds };
    if (id) update.mutate({ id, ...fields });
    else create.mutate(fields);
  };

  if (id && detail.isPending) return <Skeleton active />;
  if (id && detail.isError) return <Alert type="error" showIcon title={t('form.notFound')} />;
  const noCategory = categories.isSuccess && categories.data.length === 0;
  return (
    <div className="mq-view" data-testid="device-tag-edit">
      <Card title={t(id ? 'form.editTitle' : 'form.addTitle')}>
        {noCategory ? <Alert type="info" showIcon title={t('form.noCategory')} style={{ marginBottom: 16 }} /> : null}
        <Form<Values>
          form={form}
          name={formName}
          layout="vertical"
          onFinish={submit}
          disabled={save.isPending}
          style={{ maxWidth: 780 }}
        >
          <Form.Item name="name" label={t('form.name')} rules={[requiredRule(t), zodRule(tagNameSchema, t)]}>
            <Input placeholder={t('form.namePlaceholder')} data-testid="tag-form-name" />
          </Form.Item>
          <Form.Item name="categoryId" label={t('form.category')} rules={[{ required: true, message: t('required') }]}>
            <Select
              placeholder={t('form.categoryPlaceholder')}
              loading={categories.isPending}
              options={(categories.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
              data-testid="tag-form-category"
            />
          </Form.Item>
          <Form.Item label={t('form.devices')}>
            <DeviceTransfer
              value={deviceIds}
              onChange={setDeviceIds}
              known={detail.data?.devices}
              testId="tag-form-devices"
            />
          </Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="tag-form-save">
              {t('form.save')}
            </Button>
            <Button onClick={() => navigate('/device/tags')} data-testid="tag-form-cancel">
              {t('form.cancel')}
            </Button>
          </Space>
        </Form>
      </Card>
    </div>
  );
}
