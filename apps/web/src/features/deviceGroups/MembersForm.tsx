import type { EndpointName, Endpoints, MemberDevice, Req } from '@marquee/protocol';
import { Alert, Button, Card, Form, type FormInstance, Skeleton, Space } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCallMutation } from '../../api/queries';
import { useFormName } from '../../components/formName';
import { DeviceTransfer } from '../../components/pickers/DevicePicker';

/**
 * Saves a group or a tag with its devices: `create` without an id, `update` with it. Both say
 * so (the page's `toast.created` / `toast.updated`), refresh the device list (which shows the
 * devices' groups and tags) and go back to `backTo`.
 */
export function useSaveMembers<C extends EndpointName, U extends EndpointName>(
  id: string | null,
  create: C,
  update: U,
  backTo: string,
  t: (key: string) => string,
) {
  const navigate = useNavigate();
  const done = { invalidates: ['devices'] as const, onSuccess: () => navigate(backTo) };
  const creating = useCallMutation(create, { ...done, success: t('toast.created') });
  const updating = useCallMutation(update, { ...done, success: t('toast.updated') });
  return {
    saving: (id ? updating : creating).isPending,
    /** `update` takes the id and the fields `create` takes. */
    save: (fields: Req<Endpoints[C]>) => {
      if (id) updating.mutate({ id, ...fields } as Req<Endpoints[U]>);
      else creating.mutate(fields);
    },
  };
}

/**
 * What a group's and a tag's edit pages share: a record with its fields and its member
 * devices picked in the device transfer. `useMembers` holds the form and the chosen devices:
 * filled from the record once it loads, reset (to `blank`) when the page adds one.
 */
export function useMembers<V extends object, R extends { devices: readonly MemberDevice[] }>(
  id: string | null,
  record: R | undefined,
  values: (record: R) => V,
  blank?: Partial<V>,
) {
  const [form] = Form.useForm<V>();
  const [deviceIds, setDeviceIds] = useState<string[]>([]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: filled once per loaded record
  useEffect(() => {
    if (record) {
      form.setFieldsValue(values(record) as Parameters<typeof form.setFieldsValue>[0]);
      setDeviceIds(record.devices.map((d) => d.id));
    }
  }, [record, form]);
  const blankText = JSON.stringify(blank ?? {});
  useEffect(() => {
    if (!id) {
      form.resetFields();
      form.setFieldsValue(JSON.parse(blankText));
      setDeviceIds([]);
    }
  }, [id, blankText, form]);
  return { form, deviceIds, setDeviceIds };
}

/**
 * The edit page's frame: loading and not-found states, the card with the form (its fields
 * as children, then the devices), Save and Cancel (back to `backTo`).
 */
export function MembersForm<V extends object>({
  ns,
  id,
  testId,
  prefix,
  formName,
  title,
  loading,
  failed,
  notice,
  members,
  known,
  devicesLabel,
  devicesHint,
  saving,
  onFinish,
  backTo,
  children,
}: {
  /** The texts' namespace (its `form.notFound`, `form.save`, `form.cancel`). */
  ns: 'deviceGroups' | 'deviceTags';
  id: string | null;
  /** The page's data-testid. */
  testId: string;
  /** The test ids' prefix: `<prefix>-form-devices`, `-save`, `-cancel`. */
  prefix: string;
  formName: string;
  title: string;
  loading: boolean;
  failed: boolean;
  /** Above the form (a hint that something is missing). */
  notice?: ReactNode;
  members: { form: FormInstance<V>; deviceIds: string[]; setDeviceIds: (ids: string[]) => void };
  known: readonly MemberDevice[] | undefined;
  devicesLabel: string;
  devicesHint?: string;
  saving: boolean;
  onFinish: (values: V) => void;
  backTo: string;
  children: ReactNode;
}) {
  const { t } = useTranslation(ns);
  const navigate = useNavigate();
  const name = useFormName(formName);
  if (id && loading) return <Skeleton active />;
  if (id && failed) return <Alert type="error" showIcon title={t('form.notFound')} />;
  return (
    <div className="mq-view" data-testid={testId}>
      <Card title={title}>
        {notice}
        <Form<V>
          form={members.form}
          name={name}
          layout="vertical"
          onFinish={onFinish}
          disabled={saving}
          style={{ maxWidth: 780 }}
        >
          {children}
          <Form.Item label={devicesLabel} extra={devicesHint}>
            <DeviceTransfer
              value={members.deviceIds}
              onChange={members.setDeviceIds}
              known={known}
              testId={`${prefix}-form-devices`}
            />
          </Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" loading={saving} data-testid={`${prefix}-form-save`}>
              {t('form.save')}
            </Button>
            <Button onClick={() => navigate(backTo)} data-testid={`${prefix}-form-cancel`}>
              {t('form.cancel')}
            </Button>
          </Space>
        </Form>
      </Card>
    </div>
  );
}
