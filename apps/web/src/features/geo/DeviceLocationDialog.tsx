import { ADDRESS_MAX, latitudeSchema, longitudeSchema, POI_MAX } from '@marquee/protocol';
import { App, Form, Input, InputNumber, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { call } from '../../api/client';
import { useCallQuery } from '../../api/queries';
import { FormDialog } from '../../components/FormDialog';
import { requiredRule, zodRule } from '../../components/zodRule';
import { RegionPicker } from '../stores/RegionPicker';
import { formatPoint, precisionText } from '../stores/texts';

interface Values {
  address: string;
  poi?: string;
  regionCode?: string;
  latitude?: number | null;
  longitude?: number | null;
}

const addressRule = z.string().max(ADDRESS_MAX);
const poiRule = z.string().max(POI_MAX);

/**
 * Where a device stands (device.setLocation): its address and POI, the region (picked, or
 * read from the address) and the point, geocoded unless the user enters both coordinates.
 * Route-less like the map: the device list mounts it as a row action (`deviceId` null: closed).
 */
export function DeviceLocationDialog({ deviceId, onClose }: { deviceId: string | null; onClose: () => void }) {
  const { t } = useTranslation(['stores', 'geo', 'validation']);
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const current = useCallQuery('deviceLocation', { id: deviceId ?? '' }, { enabled: deviceId !== null });
  const lat = Form.useWatch('latitude', form);
  const lng = Form.useWatch('longitude', form);
  const oneCoordinate = (lat == null) !== (lng == null);
  const loc = current.data;

  const submit = async (v: Values) => {
    const point = v.latitude != null && v.longitude != null ? { latitude: v.latitude, longitude: v.longitude } : {};
    const answer = await call('deviceSetLocation', {
      id: deviceId as string,
      address: v.address.trim(),
      poi: v.poi?.trim() ?? '',
      regionCode: v.regionCode || undefined,
      ...point,
    });
    if (answer.approximate) {
      void message.warning(
        t('toast.approximate', { precision: precisionText(t, answer.precision), region: answer.regionName }),
      );
    }
  };

  return (
    <FormDialog<Values>
      open={deviceId !== null && !current.isLoading}
      form={form}
      title={t('location.title', { ns: 'geo', name: loc?.name ?? '' })}
      onClose={onClose}
      submit={submit}
      success={t('location.saved', { ns: 'geo' })}
      // The map and the location (geo), and the device list's location column (devices).
      invalidates={['geo', 'devices']}
      values={
        loc
          ? {
              address: loc.address ?? '',
              poi: loc.poi ?? '',
              regionCode: loc.districtCode ?? loc.cityCode ?? loc.provinceCode ?? undefined,
            }
          : undefined
      }
      canSubmit={() => !oneCoordinate}
      okText={t('dialog.save')}
      cancelText={t('dialog.cancel')}
      submitTestId="device-location-submit"
      testId="device-location-dialog"
    >
      {loc && loc.latitude !== null && loc.longitude !== null ? (
        <p data-testid="device-location-current">
          {t('location.current', { ns: 'geo', point: formatPoint(loc.latitude, loc.longitude) })}{' '}
          {loc.approximate ? <Tag color="warning">{t('approximate')}</Tag> : null}
        </p>
      ) : null}
      <Form.Item name="address" label={t('field.address')} rules={[requiredRule(t), zodRule(addressRule, t)]}>
        <Input data-testid="device-location-address" />
      </Form.Item>
      <Form.Item name="regionCode" label={t('field.region')} extra={t('dialog.regionHint')}>
        <RegionPicker testId="device-location-region" />
      </Form.Item>
      <Form.Item name="poi" label={t('field.poi')} rules={[zodRule(poiRule, t)]}>
        <Input data-testid="device-location-poi" />
      </Form.Item>
      <Form.Item label={t('field.coordinates')} extra={t('dialog.coordinatesHint')}>
        <Space.Compact block>
          <Form.Item name="latitude" noStyle rules={[zodRule(latitudeSchema, t)]}>
            <InputNumber style={{ width: '50%' }} placeholder={t('field.latitude')} aria-label={t('field.latitude')} />
          </Form.Item>
          <Form.Item name="longitude" noStyle rules={[zodRule(longitudeSchema, t)]}>
            <InputNumber
              style={{ width: '50%' }}
              placeholder={t('field.longitude')}
              aria-label={t('field.longitude')}
            />
          </Form.Item>
        </Space.Compact>
        {oneCoordinate ? (
          <div className="ant-form-item-explain-error" role="alert">
            {t('dialog.bothCoordinates')}
          </div>
        ) : null}
      </Form.Item>
    </FormDialog>
  );
}
