import { DEVICE_GROUP_REMARK_MAX, deviceGroupNameSchema } from '@marquee/protocol';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCallQuery } from '../../api/queries';
import { requiredRule, zodRule } from '../../components/zodRule';
import { MembersForm, useMembers, useSaveMembers } from './MembersForm';

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
  const [params] = useSearchParams();
  const id = params.get('id');
  const detail = useCallQuery('deviceGroupDetail', { id: id ?? '' }, { enabled: Boolean(id) });
  const members = useMembers<Values, NonNullable<typeof detail.data>>(id, detail.data, (g) => ({
    name: g.name,
    remark: g.remark,
  }));
  const { deviceIds } = members;

  const save = useSaveMembers(id, 'deviceGroupCreate', 'deviceGroupUpdate', '/device/group', t);
  const submit = (v: Values) => save.save({ name: v.name.trim(), remark: v.remark?.trim() ?? '', deviceIds });

  return (
    <MembersForm<Values>
      ns="deviceGroups"
      id={id}
      testId="device-group-edit"
      prefix="group"
      formName="device-group"
      title={t(id ? 'form.editTitle' : 'form.addTitle')}
      loading={detail.isPending}
      failed={detail.isError}
      members={members}
      known={detail.data?.devices}
      devicesLabel={t('form.devices')}
      devicesHint={t('form.devicesHint')}
      saving={save.saving}
      onFinish={submit}
      backTo="/device/group"
    >
      <Form.Item name="name" label={t('form.name')} rules={[requiredRule(t), zodRule(deviceGroupNameSchema, t)]}>
        <Input placeholder={t('form.namePlaceholder')} data-testid="group-form-name" />
      </Form.Item>
      <Form.Item name="remark" label={t('form.remark')}>
        <Input.TextArea maxLength={DEVICE_GROUP_REMARK_MAX} rows={2} data-testid="group-form-remark" />
      </Form.Item>
    </MembersForm>
  );
}
