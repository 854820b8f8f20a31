import { PlusOutlined } from '@ant-design/icons';
import {
  endpoints,
  fenToYuan,
  SPECIAL_CAPACITY_MAX,
  SPECIAL_DESCRIPTION_MAX,
  SPECIAL_KINDS,
  SPECIAL_MAX_PHOTOS,
  SPECIAL_PRICE_MAX_FEN,
  SPECIAL_RESOURCE_STATES,
  SPECIAL_TITLE_MAX,
  type SpecialKind,
  type SpecialResource,
  type SpecialResourceState,
  yuanToFen,
} from '@marquee/protocol';
import { App, DatePicker, Form, Image, Input, InputNumber, Radio, Select, Space, Upload } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { FormDialog } from '../../components/FormDialog';
import { amountRule, checkYuan } from '../../components/money';
import { DeviceSelect } from '../../components/pickers/DevicePicker';
import { maxLengthRule, requiredRule } from '../../components/zodRule';

/** A choice (dates, a number, an option) must be made: `requiredRule` is for typed text. */
const chosen = (t: TFunction) => ({ required: true, message: t('required', { ns: 'validation' }) });

import { useCan } from '../../session/useCan';
import { GroupSelect, TagSelect } from '../deviceGroups/pickers';
import { photoProblem, uploadPhoto } from './specialUpload';

interface Values {
  title: string;
  description: string;
  kind: SpecialKind;
  period: [Dayjs, Dayjs];
  priceYuan: string;
  capacity: number;
  state: SpecialResourceState;
  deviceIds: string[];
  groupIds: string[];
  tagIds: string[];
}

type Photo = { id: string; url: string | null };

/**
 * Adds or edits a special resource (the platform operator): title, kind, description, the
 * screens (the target references slots use), the dates it is offered, a reference price typed in
 * yuan (at most 2 decimals), the capacity (buyers at once; 1 = exclusive), its state, and up to
 * six photos uploaded straight to storage.
 */
export function ResourceDialog({
  open,
  editing,
  onClose,
}: {
  open: boolean;
  editing: SpecialResource | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('special');
  const { message } = App.useApp();
  const can = useCan();
  const [photos, setPhotos] = useState<Photo[]>(editing?.photos ?? []);
  const [uploading, setUploading] = useState<number | null>(null);
  const [seen, setSeen] = useState<string | null>(null);
  // The dialog is reused: start from the resource being edited each time it opens.
  const key = `${open}:${editing?.id ?? 'new'}`;
  if (seen !== key) {
    setSeen(key);
    setPhotos(editing?.photos ?? []);
  }
  const add = async (file: File) => {
    const problem = photoProblem(file);
    if (problem) {
      void message.error(t(`photo.${problem}`));
      return;
    }
    try {
      setUploading(0);
      const id = await uploadPhoto(file, i18n.language, setUploading);
      setPhotos((p) => [...p, { id, url: URL.createObjectURL(file) }]);
    } catch (e) {
      void message.error((e as Error).message);
    } finally {
      setUploading(null);
    }
  };
  return (
    <FormDialog<Values>
      open={open}
      title={editing ? t('resource.edit') : t('resource.add')}
      onClose={onClose}
      width={680}
      initialValues={{
        title: '',
        description: '',
        kind: 'landmark',
        priceYuan: '',
        capacity: 1,
        state: 'listed',
        deviceIds: [],
        groupIds: [],
        tagIds: [],
      }}
      values={
        editing
          ? {
              title: editing.title,
              description: editing.description,
              kind: editing.kind,
              period: [dayjs(editing.startDate), dayjs(editing.endDate)],
              priceYuan: fenToYuan(editing.price),
              capacity: editing.capacity,
              state: editing.state,
              deviceIds: editing.targets.deviceIds,
              groupIds: editing.targets.groupIds,
              tagIds: editing.targets.tagIds,
            }
          : undefined
      }
      canSubmit={() => uploading === null}
      submit={(v) => {
        const price = yuanToFen(v.priceYuan);
        return call('specialResourceSave', {
          ...(editing ? { id: editing.id } : {}),
          title: v.title.trim(),
          description: (v.description ?? '').trim(),
          kind: v.kind,
          targets: {
            deviceIds: v.deviceIds ?? [],
            groupIds: v.groupIds ?? [],
            tagIds: v.tagIds ?? [],
            spliceIds: editing?.targets.spliceIds ?? [],
          },
          startDate: v.period[0].format('YYYY-MM-DD'),
          endDate: v.period[1].format('YYYY-MM-DD'),
          price: price.ok ? price.fen : -1,
          capacity: v.capacity,
          state: v.state,
          photoIds: photos.map((p) => p.id),
        });
      }}
      success={editing ? t('resource.saved') : t('resource.added')}
      invalidates={['special']}
      cancelText={t('cancel')}
      okText={t('resource.save')}
      testId="special-resource-form"
      submitTestId="special-resource-submit"
    >
      <Form.Item name="title" label={t('field.title')} rules={[requiredRule(t), maxLengthRule(t, SPECIAL_TITLE_MAX)]}>
        <Input maxLength={SPECIAL_TITLE_MAX} data-testid="special-resource-title" />
      </Form.Item>
      <Form.Item name="kind" label={t('field.kind')} rules={[chosen(t)]}>
        <Radio.Group
          options={SPECIAL_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
          data-testid="special-resource-kind"
        />
      </Form.Item>
      <Form.Item name="description" label={t('field.description')} rules={[maxLengthRule(t, SPECIAL_DESCRIPTION_MAX)]}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={SPECIAL_DESCRIPTION_MAX} showCount />
      </Form.Item>
      <Form.Item name="period" label={t('field.period')} rules={[chosen(t)]}>
        <DatePicker.RangePicker allowClear={false} data-testid="special-resource-period" />
      </Form.Item>
      <Space size="large" wrap>
        <Form.Item
          name="priceYuan"
          label={t('field.price')}
          extra={t('field.priceHint')}
          rules={[requiredRule(t), amountRule((s) => checkYuan(s, { zero: true, maxFen: SPECIAL_PRICE_MAX_FEN }), t)]}
        >
          <Input
            prefix="¥"
            inputMode="decimal"
            maxLength={14}
            style={{ width: 200 }}
            data-testid="special-resource-price"
          />
        </Form.Item>
        <Form.Item name="capacity" label={t('field.capacity')} extra={t('field.capacityHint')} rules={[chosen(t)]}>
          <InputNumber min={1} max={SPECIAL_CAPACITY_MAX} precision={0} data-testid="special-resource-capacity" />
        </Form.Item>
      </Space>
      <Form.Item name="state" label={t('field.state')} rules={[chosen(t)]}>
        <Select
          style={{ width: 200 }}
          options={SPECIAL_RESOURCE_STATES.map((s) => ({ value: s, label: t(`resourceState.${s}`) }))}
          data-testid="special-resource-state"
        />
      </Form.Item>
      {can(endpoints.adTargetDevices.permission) ? (
        <Form.Item name="deviceIds" label={t('ad.target.deviceIds', { ns: 'ads' })}>
          <DeviceSelect mode="multiple" source="adTargetDevices" limit={100} testId="special-resource-devices" />
        </Form.Item>
      ) : null}
      {can(endpoints.deviceGroupOptions.permission) ? (
        <Form.Item name="groupIds" label={t('ad.target.groupIds', { ns: 'ads' })}>
          <GroupSelect testId="special-resource-groups" />
        </Form.Item>
      ) : null}
      {can(endpoints.deviceTagOptions.permission) ? (
        <Form.Item name="tagIds" label={t('ad.target.tagIds', { ns: 'ads' })}>
          <TagSelect testId="special-resource-tags" />
        </Form.Item>
      ) : null}
      <Form.Item label={t('field.photos')} extra={t('photo.hint', { max: SPECIAL_MAX_PHOTOS })}>
        <Space wrap>
          {photos.map((p) => (
            <div key={p.id} className="mq-special-thumb">
              {p.url ? <Image src={p.url} width={96} height={72} style={{ objectFit: 'cover' }} alt="" /> : null}
              <a onClick={() => setPhotos((all) => all.filter((x) => x.id !== p.id))} role="button">
                {t('photo.remove')}
              </a>
            </div>
          ))}
          {photos.length < SPECIAL_MAX_PHOTOS ? (
            <Upload
              accept="image/png,image/jpeg,image/webp"
              showUploadList={false}
              beforeUpload={(file) => {
                void add(file as unknown as File);
                return false;
              }}
            >
              <button
                type="button"
                className="ant-btn"
                data-testid="special-resource-photo"
                disabled={uploading !== null}
              >
                <PlusOutlined /> {uploading !== null ? `${uploading}%` : t('photo.add')}
              </button>
            </Upload>
          ) : null}
        </Space>
      </Form.Item>
    </FormDialog>
  );
}
