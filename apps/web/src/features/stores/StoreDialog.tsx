import { AimOutlined } from '@ant-design/icons';
import {
  ADDRESS_MAX,
  type GeoPoint,
  latitudeSchema,
  longitudeSchema,
  POI_MAX,
  phoneSchema,
  STORE_NAME_MAX,
  type Store,
} from '@marquee/protocol';
import { Alert, App, Button, Form, Input, InputNumber, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { call } from '../../api/client';
import { FormDialog } from '../../components/FormDialog';
import { DeptPicker } from '../../components/pickers/DeptPicker';
import { requiredRule, zodRule } from '../../components/zodRule';
import { RegionPicker } from './RegionPicker';
import { formatPoint, precisionText } from './texts';

interface Values {
  name: string;
  address: string;
  poi?: string;
  regionCode?: string;
  latitude?: number | null;
  longitude?: number | null;
  deptId?: string;
  contactName?: string;
  contactPhone?: string;
}

const nameRule = z.string().max(STORE_NAME_MAX);
const addressRule = z.string().max(ADDRESS_MAX);
const poiRule = z.string().max(POI_MAX);
const contactRule = z.string().max(30);

/**
 * Adds or edits a store: name, address and POI, its region (picked, or read from the
 * address), the point (geocoded from the address unless the user enters both coordinates),
 * department and contact. "Locate" shows what geocoding finds before saving, and says
 * whether it is approximate; the save says so too.
 */
export function StoreDialog({ open, editing, onClose }: { open: boolean; editing: Store | null; onClose: () => void }) {
  const { t } = useTranslation(['stores', 'validation']);
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [preview, setPreview] = useState<GeoPoint | null>(null);
  const [locating, setLocating] = useState(false);

  const submit = async (v: Values) => {
    const point = v.latitude != null && v.longitude != null ? { latitude: v.latitude, longitude: v.longitude } : {};
    const fields = {
      name: v.name.trim(),
      address: v.address.trim(),
      poi: v.poi?.trim() ?? '',
      regionCode: v.regionCode || undefined,
      deptId: v.deptId || undefined,
      contactName: v.contactName?.trim() ?? '',
      contactPhone: v.contactPhone?.trim() ?? '',
      ...point,
    };
    const answer = editing ? await call('storeUpdate', { id: editing.id, ...fields }) : await call('storeAdd', fields);
    if (answer.approximate) {
      void message.warning(
        t('toast.approximate', { precision: precisionText(t, answer.precision), region: answer.regionName }),
      );
    }
    setPreview(null);
  };

  const locate = async () => {
    const address = String(form.getFieldValue('address') ?? '').trim();
    if (!address) {
      void form.validateFields(['address']);
      return;
    }
    setLocating(true);
    try {
      setPreview(await call('geoGeocode', { address, regionCode: form.getFieldValue('regionCode') || undefined }));
    } catch {
      setPreview(null);
    } finally {
      setLocating(false);
    }
  };

  const required = requiredRule(t);
  const lat = Form.useWatch('latitude', form);
  const lng = Form.useWatch('longitude', form);
  const oneCoordinate = (lat == null) !== (lng == null);
  return (
    <FormDialog<Values>
      open={open}
      form={form}
      title={t(editing ? 'dialog.editTitle' : 'dialog.addTitle')}
      onClose={() => {
        setPreview(null);
        onClose();
      }}
      submit={submit}
      success={t(editing ? 'toast.updated' : 'toast.added')}
      invalidates={['stores', 'geo', 'devices']}
      values={
        editing
          ? {
              name: editing.name,
              address: editing.address,
              poi: editing.poi,
              regionCode: editing.districtCode ?? editing.cityCode ?? editing.provinceCode ?? undefined,
              deptId: editing.deptId ?? undefined,
              contactName: editing.contactName,
              contactPhone: editing.contactPhone,
            }
          : undefined
      }
      canSubmit={() => !oneCoordinate}
      okText={t('dialog.save')}
      cancelText={t('dialog.cancel')}
      submitTestId="store-dialog-submit"
      testId="store-dialog"
      className="mq-form-grid"
      width={720}
    >
      <Form.Item name="name" label={t('field.name')} rules={[required, zodRule(nameRule, t)]}>
        <Input data-testid="store-dialog-name" />
      </Form.Item>
      <Form.Item name="deptId" label={t('field.dept')} extra={t('dialog.deptHint')}>
        <DeptPicker allowClear testId="store-dialog-dept" />
      </Form.Item>
      <Form.Item
        name="address"
        label={t('field.address')}
        rules={[required, zodRule(addressRule, t)]}
        className="mq-span"
      >
        <Input
          data-testid="store-dialog-address"
          onChange={() => setPreview(null)}
          addonAfter={
            <Button
              type="text"
              size="small"
              icon={<AimOutlined />}
              loading={locating}
              onClick={() => void locate()}
              data-testid="store-dialog-locate"
            >
              {t('dialog.locate')}
            </Button>
          }
        />
      </Form.Item>
      {preview ? (
        <Alert
          className="mq-span"
          style={{ marginBottom: 16 }}
          type={preview.approximate ? 'warning' : 'success'}
          showIcon
          data-testid="store-dialog-preview"
          message={
            preview.approximate
              ? t('dialog.previewApproximate', {
                  point: formatPoint(preview.latitude, preview.longitude),
                  precision: precisionText(t, preview.precision),
                })
              : t('dialog.previewExact', { point: formatPoint(preview.latitude, preview.longitude) })
          }
          description={preview.regionName || undefined}
        />
      ) : null}
      <Form.Item name="regionCode" label={t('field.region')} extra={t('dialog.regionHint')}>
        <RegionPicker testId="store-dialog-region" />
      </Form.Item>
      <Form.Item name="poi" label={t('field.poi')} rules={[zodRule(poiRule, t)]}>
        <Input data-testid="store-dialog-poi" />
      </Form.Item>
      <Form.Item label={t('field.coordinates')} extra={t('dialog.coordinatesHint')} className="mq-span">
        <Space.Compact block>
          <Form.Item name="latitude" noStyle rules={[zodRule(latitudeSchema, t)]}>
            <InputNumber
              style={{ width: '50%' }}
              placeholder={t('field.latitude')}
              aria-label={t('field.latitude')}
              step={0.000001}
              data-testid="store-dialog-lat"
            />
          </Form.Item>
          <Form.Item name="longitude" noStyle rules={[zodRule(longitudeSchema, t)]}>
            <InputNumber
              style={{ width: '50%' }}
              placeholder={t('field.longitude')}
              aria-label={t('field.longitude')}
              step={0.000001}
              data-testid="store-dialog-lng"
            />
          </Form.Item>
        </Space.Compact>
        {oneCoordinate ? (
          <div className="ant-form-item-explain-error" role="alert">
            {t('dialog.bothCoordinates')}
          </div>
        ) : null}
      </Form.Item>
      <Form.Item name="contactName" label={t('field.contactName')} rules={[zodRule(contactRule, t)]}>
        <Input data-testid="store-dialog-contact" />
      </Form.Item>
      <Form.Item name="contactPhone" label={t('field.contactPhone')} rules={[zodRule(phoneSchema, t)]}>
        <Input data-testid="store-dialog-phone" />
      </Form.Item>
    </FormDialog>
  );
}
