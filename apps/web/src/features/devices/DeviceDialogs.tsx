import {
  DEVICE_REMARK_MAX,
  type DeviceRow,
  deviceFieldsSchema,
  deviceNumberSchema,
  ErrorCode,
  type PairingCandidate,
  pairingCodeSchema,
  TIME_FORMAT,
} from '@marquee/protocol';
import { Alert, App, AutoComplete, Button, DatePicker, Form, Input, InputNumber, Radio, Table } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client';
import { FormDialog } from '../../components/FormDialog';
import { DeptPicker } from '../../components/pickers/DeptPicker';
import { DictionarySelect } from '../../components/pickers/DictionarySelect';
import { TimeZoneSelect } from '../../components/pickers/TimeZoneSelect';
import { useDictionary } from '../../components/pickers/useDictionary';
import { requiredRule, zodRule } from '../../components/zodRule';
import { CustomFieldInputs, customFieldRequest, customFieldValuesGiven, useCustomFields } from './customFields';
import './devices.css';

interface AddValues {
  by: 'code' | 'number';
  code?: string;
  number?: string;
  name: string;
  deptId?: string;
  scene?: string;
  customFields?: Record<string, string | number | null>;
}

/**
 * Adds a screen that is pairing (issue 9): by the code it shows (or its QR's link, which opens
 * this dialog with the code filled in), or by the device number it reported; with a name,
 * a department of the caller's scope (default the current one) and a scene. A wrong or expired code, an
 * unknown number or a number taken are shown at the field, in the user's language.
 */
export function AddDeviceDialog({
  open,
  initialCode,
  onClose,
}: {
  open: boolean;
  /** A pairing code to start with (the QR's `?pair=` link). */
  initialCode?: string;
  onClose: () => void;
}) {
  const { t } = useTranslation(['devices', 'validation']);
  const { message } = App.useApp();
  const [form] = Form.useForm<AddValues>();
  const by = Form.useWatch('by', form) ?? 'code';
  /** The pairings that report the number entered, when adding by it was ambiguous. */
  const [candidates, setCandidates] = useState<PairingCandidate[] | null>(null);
  const customFields = useCustomFields(open);
  const scenes = useDictionary('scene');
  const pickCode = (code: string) => {
    form.setFieldsValue({ by: 'code', code });
    setCandidates(null);
  };

  const submit = async (v: AddValues) => {
    const target = v.by === 'code' ? { code: v.code?.trim() } : { number: v.number?.trim() };
    try {
      await call(
        'deviceAdd',
        {
          ...target,
          name: v.name.trim(),
          ...(v.deptId ? { deptId: v.deptId } : {}),
          ...(v.scene ? { scene: v.scene } : {}),
          ...(customFields.length > 0 ? { customFields: customFieldValuesGiven(customFields, v.customFields) } : {}),
        },
        { silent: true },
      );
    } catch (error) {
      if (error instanceof ApiError && error.code === ErrorCode.PAIRING_CODE_INVALID) {
        const field = v.by === 'code' ? 'code' : 'number';
        form.setFields([{ name: field, errors: [t(v.by === 'code' ? 'error.pairingCode' : 'error.pairingNumber')] }]);
      } else if (error instanceof ApiError && error.code === ErrorCode.PAIRING_NUMBER_AMBIGUOUS && v.number) {
        // Several screens (or someone else) report this number: the operator picks by code.
        form.setFields([{ name: 'number', errors: [t('error.numberAmbiguous')] }]);
        const listed = await call('devicePairingCandidates', { number: v.number.trim() }, { silent: true }).catch(
          () => null,
        );
        setCandidates(listed?.data ?? []);
      } else if (error instanceof ApiError && error.code === ErrorCode.CONFLICT) {
        form.setFields([{ name: 'number', errors: [t('error.numberTaken')] }]);
      } else if (error instanceof Error) {
        void message.error(error.message);
      }
      throw error;
    }
  };

  const required = requiredRule(t);
  return (
    <FormDialog<AddValues>
      open={open}
      form={form}
      title={t('dialog.addTitle')}
      onClose={() => {
        setCandidates(null);
        onClose();
      }}
      submit={submit}
      success={t('dialog.added')}
      invalidates={['devices']}
      initialValues={{ by: 'code' }}
      values={initialCode ? { by: 'code', code: initialCode } : undefined}
      okText={t('add')}
      cancelText={t('dialog.cancel')}
      submitTestId="device-add-submit"
      testId="device-add-dialog"
    >
      <Form.Item name="by" label={t('dialog.by')}>
        <Radio.Group
          optionType="button"
          options={[
            { value: 'code', label: t('dialog.byCode') },
            { value: 'number', label: t('dialog.byNumber') },
          ]}
          data-testid="device-add-by"
        />
      </Form.Item>
      {by === 'code' ? (
        <Form.Item
          name="code"
          label={t('dialog.code')}
          extra={t('dialog.codeHint')}
          rules={[
            required,
            {
              validator: async (_r, value?: string) => {
                if (value && !pairingCodeSchema.safeParse(value).success) throw new Error(t('dialog.codeFormat'));
              },
            },
          ]}
        >
          <Input
            autoFocus
            autoComplete="off"
            maxLength={6}
            style={{ textTransform: 'uppercase', letterSpacing: 4, fontFamily: 'monospace' }}
            data-testid="device-add-code"
          />
        </Form.Item>
      ) : (
        <Form.Item
          name="number"
          label={t('dialog.byNumber')}
          extra={t('dialog.numberHint')}
          rules={[
            required,
            {
              validator: async (_r, value?: string) => {
                if (value && !deviceNumberSchema.safeParse(value).success) throw new Error(t('dialog.numberFormat'));
              },
            },
          ]}
        >
          <Input
            autoComplete="off"
            maxLength={64}
            data-testid="device-add-number"
            onChange={() => setCandidates(null)}
          />
        </Form.Item>
      )}
      {by === 'number' && candidates && candidates.length > 0 ? (
        <PairingCandidates candidates={candidates} onPick={pickCode} />
      ) : null}
      <Form.Item name="name" label={t('field.name')} rules={[required, zodRule(deviceFieldsSchema.shape.name, t)]}>
        <Input maxLength={64} data-testid="device-add-name" />
      </Form.Item>
      <Form.Item name="deptId" label={t('field.dept')} extra={t('dialog.deptHint')}>
        <DeptPicker allowClear enabled={open} testId="device-add-dept" />
      </Form.Item>
      <Form.Item name="scene" label={t('field.scene')}>
        <DictionarySelect dictionary={scenes} testId="device-add-scene" />
      </Form.Item>
      {/* Added by its number, the device may be one an import pre-registered with its values. */}
      <CustomFieldInputs fields={customFields} t={t} demandRequired={by === 'code'} />
    </FormDialog>
  );
}

/**
 * The live pairings that report the number entered (add by number was ambiguous): their codes,
 * when they were asked for and from which address; the operator picks the code the screen shows.
 */
function PairingCandidates({ candidates, onPick }: { candidates: PairingCandidate[]; onPick: (code: string) => void }) {
  const { t } = useTranslation('devices');
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      data-testid="device-add-candidates"
      message={t('dialog.candidatesTitle')}
      description={
        <>
          <p style={{ margin: '4px 0 8px' }}>{t('dialog.candidatesHint')}</p>
          <Table<PairingCandidate>
            size="small"
            pagination={false}
            rowKey="code"
            dataSource={candidates}
            columns={[
              {
                title: t('dialog.code'),
                dataIndex: 'code',
                render: (code: string) => <span style={{ fontFamily: 'monospace', letterSpacing: 2 }}>{code}</span>,
              },
              {
                title: t('dialog.candidateAt'),
                dataIndex: 'createdAt',
                render: (at: string) => dayjs(at).format(TIME_FORMAT),
              },
              { title: t('dialog.candidateIp'), dataIndex: 'ip', render: (ip: string | null) => ip ?? '-' },
              {
                title: t('dialog.candidatePlayer'),
                key: 'player',
                render: (_v, c) => [c.model, c.playerVersion].filter(Boolean).join(' ') || '-',
              },
              {
                title: '',
                key: 'pick',
                render: (_v, c) => (
                  <Button size="small" onClick={() => onPick(c.code)} data-testid={`device-add-pick-${c.code}`}>
                    {t('dialog.candidatePick')}
                  </Button>
                ),
              },
            ]}
          />
        </>
      }
    />
  );
}

interface EditValues {
  name: string;
  deptId?: string | null;
  type?: DeviceRow['type'];
  scene?: DeviceRow['scene'];
  /** A number, or text typed that is not one yet (the field's rule refuses it). */
  screenSize?: number | string | null;
  screenCount?: number;
  installedAt?: Dayjs | null;
  timeZone?: string | null;
  remark?: string;
  customFields?: Record<string, string | number | null>;
}

const toIso = (v: Dayjs | null | undefined) => (v ? v.toDate().toISOString() : null);

/**
 * The screen size (issue 31): any diagonal in inches, typed, with the dictionary `screenSize`'s
 * common sizes offered as suggestions. The form keeps a number (null when empty); text that is
 * not a number yet ('65.') stays as typed, and the field's rule refuses it if left so.
 */
function ScreenSizeInput({
  value,
  onChange,
  testId,
}: {
  value?: number | string | null;
  onChange?: (v: number | string | null) => void;
  testId: string;
}) {
  const { t } = useTranslation('devices');
  const sizes = useDictionary('screenSize');
  const change = (text: string) => {
    const typed = text.trim();
    onChange?.(typed === '' ? null : /^\d+(\.\d+)?$/.test(typed) ? Number(typed) : text);
  };
  return (
    <AutoComplete
      value={value === null || value === undefined ? '' : String(value)}
      options={sizes.options()}
      onChange={change}
      filterOption={(input, option) => !input.trim() || String(option?.value ?? '').startsWith(input.trim())}
      style={{ width: '100%' }}
    >
      <Input
        inputMode="decimal"
        allowClear
        placeholder={t('screenSizeHint')}
        suffix={t('inches', { size: '' }).trim()}
        data-testid={testId}
      />
    </AutoComplete>
  );
}

/**
 * Edits a device's registry fields: name, department, type, scene, screen size and count, install
 * time, remark. Not its service expiry: that is the market's (a trial from pairing, points bought; issue 27).
 */
export function EditDeviceDialog({ device, onClose }: { device: DeviceRow | null; onClose: () => void }) {
  const { t } = useTranslation(['devices', 'validation']);
  // The types and scenes are the dictionary's (issue 31): the enabled ones, and the device's own if disabled since.
  const types = useDictionary('deviceType');
  const scenes = useDictionary('scene');
  const required = requiredRule(t);
  const customFields = useCustomFields(device !== null);
  const submit = async (v: EditValues) => {
    if (!device) return;
    await call('deviceUpdate', {
      id: device.id,
      name: v.name.trim(),
      deptId: v.deptId ?? null,
      type: v.type ?? null,
      scene: v.scene ?? null,
      screenSize: typeof v.screenSize === 'number' ? v.screenSize : null,
      screenCount: v.screenCount ?? 1,
      installedAt: toIso(v.installedAt),
      timeZone: v.timeZone ?? null,
      remark: v.remark?.trim() ?? '',
      ...(customFields.length > 0 ? { customFields: customFieldRequest(customFields, v.customFields) } : {}),
    });
  };
  return (
    <FormDialog<EditValues>
      open={device !== null}
      title={t('dialog.editTitle')}
      onClose={onClose}
      submit={submit}
      success={t('dialog.updated')}
      invalidates={['devices']}
      values={
        device
          ? {
              name: device.name,
              deptId: device.deptId,
              type: device.type,
              scene: device.scene,
              screenSize: device.screenSize,
              screenCount: device.screenCount,
              installedAt: device.installedAt ? dayjs(device.installedAt) : null,
              timeZone: device.timeZone,
              remark: device.remark,
              customFields: device.customFields,
            }
          : undefined
      }
      okText={t('dialog.save')}
      cancelText={t('dialog.cancel')}
      submitTestId="device-edit-submit"
      testId="device-edit-dialog"
      className="mq-device-form"
      width={720}
    >
      <Form.Item name="name" label={t('field.name')} rules={[required, zodRule(deviceFieldsSchema.shape.name, t)]}>
        <Input maxLength={64} data-testid="device-edit-name" />
      </Form.Item>
      <Form.Item name="deptId" label={t('field.dept')}>
        <DeptPicker enabled={device !== null} testId="device-edit-dept" />
      </Form.Item>
      <Form.Item name="type" label={t('field.type')}>
        <DictionarySelect dictionary={types} current={device?.type} testId="device-edit-type" />
      </Form.Item>
      <Form.Item name="scene" label={t('field.scene')}>
        <DictionarySelect dictionary={scenes} current={device?.scene} testId="device-edit-scene" />
      </Form.Item>
      <Form.Item
        name="screenSize"
        label={t('field.screenSize')}
        rules={[zodRule(deviceFieldsSchema.shape.screenSize, t)]}
      >
        <ScreenSizeInput testId="device-edit-size" />
      </Form.Item>
      <Form.Item
        name="screenCount"
        label={t('field.screenCount')}
        rules={[zodRule(deviceFieldsSchema.shape.screenCount, t)]}
      >
        <InputNumber min={1} max={64} precision={0} style={{ width: '100%' }} data-testid="device-edit-count" />
      </Form.Item>
      <Form.Item name="installedAt" label={t('field.installedAt')}>
        <DatePicker showTime format={TIME_FORMAT} style={{ width: '100%' }} data-testid="device-edit-installed" />
      </Form.Item>
      <Form.Item
        name="timeZone"
        label={t('timeZone.label', { ns: 'common' })}
        tooltip={t('timeZone.deviceHint', { ns: 'common' })}
      >
        <TimeZoneSelect follow enabled={device !== null} testId="device-edit-time-zone" />
      </Form.Item>
      <Form.Item
        name="remark"
        label={t('field.remark')}
        className="mq-device-span"
        rules={[zodRule(deviceFieldsSchema.shape.remark, t)]}
      >
        <Input.TextArea maxLength={DEVICE_REMARK_MAX} showCount rows={2} data-testid="device-edit-remark" />
      </Form.Item>
      <CustomFieldInputs fields={customFields} t={t} />
    </FormDialog>
  );
}
