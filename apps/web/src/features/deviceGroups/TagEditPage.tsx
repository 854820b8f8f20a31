import { tagNameSchema } from '@marquee/protocol';
import { Alert, Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCallQuery } from '../../api/queries';
import { requiredRule, zodRule } from '../../components/zodRule';
import { MembersForm, useMembers, useSaveMembers } from './MembersForm';

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
  const [params] = useSearchParams();
  const id = params.get('id');
  const presetCategory = params.get('categoryId') ?? undefined;
  const categories = useCallQuery('tagCategoryList', {});
  const detail = useCallQuery('deviceTagDetail', { id: id ?? '' }, { enabled: Boolean(id) });
  const members = useMembers<Values, NonNullable<typeof detail.data>>(
    id,
    detail.data,
    (tag) => ({ name: tag.name, categoryId: tag.categoryId }),
    presetCategory ? { categoryId: presetCategory } : undefined,
  );
  const { deviceIds } = members;

  const save = useSaveMembers(id, 'deviceTagCreate', 'deviceTagUpdate', '/device/tags', t);
  const submit = (v: Values) => save.save({ name: v.name.trim(), categoryId: v.categoryId, deviceIds });

  const noCategory = categories.isSuccess && categories.data.length === 0;
  return (
    <MembersForm<Values>
      ns="deviceTags"
      id={id}
      testId="device-tag-edit"
      prefix="tag"
      formName="device-tag"
      title={t(id ? 'form.editTitle' : 'form.addTitle')}
      loading={detail.isPending}
      failed={detail.isError}
      notice={
        noCategory ? <Alert type="info" showIcon title={t('form.noCategory')} style={{ marginBottom: 16 }} /> : null
      }
      members={members}
      known={detail.data?.devices}
      devicesLabel={t('form.devices')}
      saving={save.saving}
      onFinish={submit}
      backTo="/device/tags"
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
    </MembersForm>
  );
}
