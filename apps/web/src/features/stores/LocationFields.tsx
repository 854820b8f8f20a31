import { ADDRESS_MAX, type GeoPrecision, latitudeSchema, longitudeSchema, POI_MAX } from '@marquee/protocol';
import { App, Form, type FormInstance, Input, InputNumber, Space } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { z } from 'zod';
import { requiredRule, zodRule } from '../../components/zodRule';
import { RegionPicker } from './RegionPicker';
import { precisionText } from './texts';

/** The location part of a form: a store's (StoreDialog) or a device's (DeviceLocationDialog). */
export interface LocationValues {
  address: string;
  poi?: string;
  regionCode?: string;
  latitude?: number | null;
  longitude?: number | null;
}

const addressRule = z.string().max(ADDRESS_MAX);
const poiRule = z.string().max(POI_MAX);

/**
 * The form's location values of a located thing (a store, a device): its address and POI,
 * and the region at the most precise level known.
 */
export function locationValues(x: {
  address: string | null;
  poi: string | null;
  districtCode?: string | null;
  cityCode?: string | null;
  provinceCode?: string | null;
}): Pick<LocationValues, 'address' | 'poi' | 'regionCode'> {
  return {
    address: x.address ?? '',
    poi: x.poi ?? '',
    regionCode: x.districtCode ?? x.cityCode ?? x.provinceCode ?? undefined,
  };
}

/**
 * A location form's state and save: `oneCoordinate` while exactly one coordinate is filled in
 * (the form cannot be submitted then); `request`, the request's location fields (trimmed
 * texts, the point only when both coordinates are given); `warn`, saying so when the save
 * geocoded the address only approximately.
 */
export function useLocationForm(form: FormInstance, t: TFunction) {
  const { message } = App.useApp();
  const lat = Form.useWatch('latitude', form);
  const lng = Form.useWatch('longitude', form);
  return {
    oneCoordinate: (lat == null) !== (lng == null),
    request: (v: LocationValues) => {
      const point = v.latitude != null && v.longitude != null ? { latitude: v.latitude, longitude: v.longitude } : {};
      return { address: v.address.trim(), poi: v.poi?.trim() ?? '', regionCode: v.regionCode || undefined, ...point };
    },
    warn: (answer: { approximate: boolean; precision: GeoPrecision; regionName: string }) => {
      if (answer.approximate) {
        void message.warning(
          t('toast.approximate', { precision: precisionText(t, answer.precision), region: answer.regionName }),
        );
      }
    },
  };
}

/**
 * The address (required, bounded; `address` is its input, `children` follow it), the region
 * (picked, or read from the address), the POI and the two coordinates, with the error while
 * only one of them is filled in. `spanClassName` goes on the address and the coordinates.
 * Test ids: `${testId}-region`, `${testId}-poi`, and with `coordinateTestIds`
 * `${testId}-lat` and `${testId}-lng`.
 */
export function LocationFields({
  t,
  testId,
  oneCoordinate,
  address,
  children,
  spanClassName,
  coordinateTestIds = false,
  step,
}: {
  t: TFunction;
  testId: string;
  oneCoordinate: boolean;
  address: ReactNode;
  children?: ReactNode;
  spanClassName?: string;
  coordinateTestIds?: boolean;
  step?: number;
}) {
  const coordinate = (field: 'latitude' | 'longitude', suffix: string) => (
    <InputNumber
      style={{ width: '50%' }}
      placeholder={t(`field.${field}`)}
      aria-label={t(`field.${field}`)}
      step={step}
      data-testid={coordinateTestIds ? `${testId}-${suffix}` : undefined}
    />
  );
  return (
    <>
      <Form.Item
        name="address"
        label={t('field.address')}
        rules={[requiredRule(t), zodRule(addressRule, t)]}
        className={spanClassName}
      >
        {address}
      </Form.Item>
      {children}
      <Form.Item name="regionCode" label={t('field.region')} extra={t('dialog.regionHint')}>
        <RegionPicker testId={`${testId}-region`} />
      </Form.Item>
      <Form.Item name="poi" label={t('field.poi')} rules={[zodRule(poiRule, t)]}>
        <Input data-testid={`${testId}-poi`} />
      </Form.Item>
      <Form.Item label={t('field.coordinates')} extra={t('dialog.coordinatesHint')} className={spanClassName}>
        <Space.Compact block>
          <Form.Item name="latitude" noStyle rules={[zodRule(latitudeSchema, t)]}>
            {coordinate('latitude', 'lat')}
          </Form.Item>
          <Form.Item name="longitude" noStyle rules={[zodRule(longitudeSchema, t)]}>
            {coordinate('longitude', 'lng')}
          </Form.Item>
        </Space.Compact>
        {oneCoordinate ? (
          <div className="ant-form-item-explain-error" role="alert">
            {t('dialog.bothCoordinates')}
          </div>
        ) : null}
      </Form.Item>
    </>
  );
}
