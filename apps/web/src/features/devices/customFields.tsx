import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import {
  CUSTOM_FIELD_KEY_PATTERN,
  CUSTOM_FIELD_LABEL_MAX,
  CUSTOM_FIELD_OPTION_MAX,
  CUSTOM_FIELD_TEXT_MAX,
  CUSTOM_FIELD_TYPES,
  type CustomField,
  type CustomFieldType,
  customFieldColumnKey,
  type DeviceRow,
} from '@marquee/protocol';
import { Button, Checkbox, DatePicker, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Table } from 'antd';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useCallMutation, useCallQuery } from '../../api/queries';
import { confirmOkProps } from '../../components/ConfirmAction';
import { FormDialog } from '../../components/FormDialog';
import type { TableColumn } from '../../components/tableConfig';
import { requiredRule } from '../../components/zodRule';

// Device custom fields (issue 31; protocol endpoints/customFields.ts): the enterprise's
// definitions (one query), their inputs in the device form, their columns (the table config's
// column settings), the detail's values, and the administrator's dialog defining them.

/** The enterprise's custom fields in their order (empty while loading). */
export function useCustomFields(enabled = true): CustomField[] {
  const query = useCallQuery('customFieldList', {}, { enabled });
  return query.data?.data ?? [];
}

/** A stored value as shown (a date stays YYYY-MM-DD; '-' when none). */
export function customValueText(value: string | number | undefined): string {
  return value === undefined || value === '' ? '-' : String(value);
}

/** The device list's columns of the custom fields: shown by default when the field says so. */
export function customFieldColumns(fields: readonly CustomField[]): TableColumn<DeviceRow>[] {
  return fields.map((f) => ({
    prop: customFieldColumnKey(f.key),
    label: f.label,
    width: 140,
    ellipsis: true,
    show: f.showInList,
    slot: (_v: never, row: DeviceRow) => customValueText(row.customFields?.[f.key]),
  }));
}

/** The form's name of a custom field's input. */
export const customFieldName = (key: string) => ['customFields', key];

/**
 * The inputs of the custom fields in the device form (values under `customFields`). With
 * `demandRequired` false a required field may stay empty here: the server knows whether the
 * device already holds a value (a pre-registered device added by its number).
 */
export function CustomFieldInputs({
  fields,
  t,
  demandRequired = true,
}: {
  fields: readonly CustomField[];
  t: TFunction;
  demandRequired?: boolean;
}) {
  const required = requiredRule(t);
  return (
    <>
      {fields.map((f) => (
        <Form.Item
          key={f.key}
          name={customFieldName(f.key)}
          label={f.label}
          rules={f.required && demandRequired ? [required] : undefined}
          getValueProps={f.type === 'date' ? (v) => ({ value: v ? dayjs(v) : null }) : undefined}
          normalize={f.type === 'date' ? (v) => (v ? dayjs(v).format('YYYY-MM-DD') : null) : undefined}
        >
          {f.type === 'number' ? (
            <InputNumber style={{ width: '100%' }} data-testid={`device-cf-${f.key}`} />
          ) : f.type === 'date' ? (
            <DatePicker style={{ width: '100%' }} data-testid={`device-cf-${f.key}`} />
          ) : f.type === 'option' ? (
            <Select
              allowClear
              options={f.options.map((o) => ({ value: o, label: o }))}
              data-testid={`device-cf-${f.key}`}
            />
          ) : (
            <Input maxLength={CUSTOM_FIELD_TEXT_MAX} data-testid={`device-cf-${f.key}`} />
          )}
        </Form.Item>
      ))}
    </>
  );
}

/** The form's values as device.update takes them: every defined field, null for an empty one. */
export function customFieldRequest(
  fields: readonly CustomField[],
  values: Record<string, string | number | null | undefined> | undefined,
): Record<string, string | number | null> {
  const out: Record<string, string | number | null> = {};
  for (const f of fields) {
    const v = values?.[f.key];
    out[f.key] = v === undefined || v === '' ? null : v;
  }
  return out;
}

/** The values filled in, as device.add takes them: an empty field is left out (it clears nothing). */
export function customFieldValuesGiven(
  fields: readonly CustomField[],
  values: Record<string, string | number | null | undefined> | undefined,
): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [key, v] of Object.entries(customFieldRequest(fields, values))) if (v !== null) out[key] = v;
  return out;
}

interface DefinitionValues {
  key: string;
  label: string;
  type: CustomFieldType;
  options?: string[];
  required?: boolean;
  sort?: number;
  showInList?: boolean;
}

function DefinitionDialog({ field, open, onClose }: { field: CustomField | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation(['devices', 'validation']);
  const required = requiredRule(t);
  const [form] = Form.useForm<DefinitionValues>();
  const type = Form.useWatch('type', form) ?? field?.type ?? 'text';
  return (
    <FormDialog<DefinitionValues>
      open={open}
      title={field ? t('cf.editTitle') : t('cf.addTitle')}
      onClose={onClose}
      submit={async (v) => {
        await call('customFieldSave', {
          id: field?.id,
          key: v.key.trim(),
          label: v.label.trim(),
          type: v.type,
          options: v.type === 'option' ? (v.options ?? []).map((o) => o.trim()).filter(Boolean) : [],
          required: v.required ?? false,
          sort: v.sort ?? 0,
          showInList: v.showInList ?? false,
        });
      }}
      success={t('cf.saved')}
      invalidates={['devices']}
      values={
        field
          ? {
              key: field.key,
              label: field.label,
              type: field.type,
              options: field.options,
              required: field.required,
              sort: field.sort,
              showInList: field.showInList,
            }
          : { key: '', label: '', type: 'text', options: [], required: false, sort: 0, showInList: true }
      }
      form={form}
      okText={t('dialog.save')}
      cancelText={t('dialog.cancel')}
      submitTestId="cf-submit"
      testId="cf-dialog"
    >
      <Form.Item
        name="label"
        label={t('cf.label')}
        rules={[required, { max: CUSTOM_FIELD_LABEL_MAX }]}
        tooltip={t('cf.labelHint')}
      >
        <Input maxLength={CUSTOM_FIELD_LABEL_MAX} data-testid="cf-label" />
      </Form.Item>
      <Form.Item
        name="key"
        label={t('cf.key')}
        tooltip={t('cf.keyHint')}
        rules={[required, { pattern: CUSTOM_FIELD_KEY_PATTERN, message: t('cf.keyFormat') }]}
      >
        <Input maxLength={32} disabled={field !== null} data-testid="cf-key" />
      </Form.Item>
      <Form.Item name="type" label={t('cf.type')} rules={[required]}>
        <Select
          options={CUSTOM_FIELD_TYPES.map((v) => ({ value: v, label: t(`cf.types.${v}`) }))}
          data-testid="cf-type"
        />
      </Form.Item>
      {type === 'option' ? (
        <Form.Item
          name="options"
          label={t('cf.options')}
          tooltip={t('cf.optionsHint')}
          rules={[{ ...required, type: 'array' as const, min: 1, whitespace: false }]}
        >
          <Select
            mode="tags"
            tokenSeparators={[',', '，', '、']}
            maxTagTextLength={CUSTOM_FIELD_OPTION_MAX}
            open={false}
            data-testid="cf-options"
          />
        </Form.Item>
      ) : null}
      <Form.Item name="sort" label={t('cf.sort')}>
        <InputNumber min={0} max={9999} precision={0} style={{ width: '100%' }} data-testid="cf-sort" />
      </Form.Item>
      <Form.Item name="required" valuePropName="checked">
        <Checkbox data-testid="cf-required">{t('cf.required')}</Checkbox>
      </Form.Item>
      <Form.Item name="showInList" valuePropName="checked">
        <Checkbox data-testid="cf-show">{t('cf.showInList')}</Checkbox>
      </Form.Item>
    </FormDialog>
  );
}

/** The administrator's dialog of the enterprise's custom fields: add, edit, delete (confirmed, with the devices holding a value). */
export function CustomFieldsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation(['devices']);
  const query = useCallQuery('customFieldList', {}, { enabled: open });
  const [editing, setEditing] = useState<CustomField | null | 'new'>(null);
  const remove = useCallMutation('customFieldDelete', { success: t('cf.deleted') });
  const fields = query.data?.data ?? [];
  return (
    <Modal open={open} title={t('cf.title')} onCancel={onClose} footer={null} width={760} destroyOnHidden>
      <div data-testid="cf-manage">
        <Space style={{ marginBottom: 12 }}>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="cf-add">
            {t('cf.add')}
          </Button>
          <span className="mq-muted">{t('cf.hint')}</span>
        </Space>
        <Table<CustomField>
          rowKey="id"
          size="small"
          loading={query.isLoading}
          dataSource={fields}
          pagination={false}
          locale={{ emptyText: t('cf.empty') }}
          onRow={(row) => ({ 'data-testid': `cf-row-${row.key}` }) as object}
          columns={[
            { title: t('cf.label'), dataIndex: 'label' },
            { title: t('cf.key'), dataIndex: 'key' },
            {
              title: t('cf.type'),
              dataIndex: 'type',
              render: (v: CustomFieldType, row) =>
                v === 'option' ? `${t(`cf.types.${v}`)}: ${row.options.join(' / ')}` : t(`cf.types.${v}`),
            },
            { title: t('cf.required'), dataIndex: 'required', render: (v: boolean) => (v ? t('cf.yes') : t('cf.no')) },
            { title: t('cf.devices'), dataIndex: 'deviceCount', align: 'right' },
            {
              title: t('actions'),
              key: 'ops',
              render: (_v, row) => (
                <Space>
                  <Button
                    type="link"
                    size="small"
                    icon={<EditOutlined />}
                    onClick={() => setEditing(row)}
                    data-testid={`cf-edit-${row.key}`}
                  >
                    {t('edit')}
                  </Button>
                  <Popconfirm
                    title={t('cf.confirmDelete', { label: row.label })}
                    description={
                      row.deviceCount > 0
                        ? t('cf.confirmDeleteHeld', { count: row.deviceCount })
                        : t('cf.confirmDeleteNone')
                    }
                    okText={t('delete')}
                    cancelText={t('dialog.cancel')}
                    okButtonProps={confirmOkProps(true)}
                    onConfirm={() => remove.mutateAsync({ id: row.id }).catch(() => undefined)}
                  >
                    <Button
                      type="link"
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      data-testid={`cf-delete-${row.key}`}
                    >
                      {t('delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </div>
      {editing !== null ? (
        <DefinitionDialog
          key={editing === 'new' ? 'new' : editing.id}
          open
          field={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </Modal>
  );
}
