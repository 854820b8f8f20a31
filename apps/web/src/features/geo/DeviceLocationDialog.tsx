import { Form, Input, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useCallQuery } from '../../api/queries';
import { FormDialog } from '../../components/FormDialog';
import { LocationFields, type LocationValues, locationValues, useLocationForm } from '../stores/LocationFields';
import { formatPoint } from '../stores/texts';

type Values = LocationValues;

/**
 * Where a device stands (device.setLocation): its address and POI, the region (picked, or
 * read from the address) and the point, geocoded unless the user enters both coordinates.
 * Route-less like the map: the device list mounts it as a row action (`deviceId` null: closed).
 */
export function DeviceLocationDialog({ deviceId, onClose }: { deviceId: string | null; onClose: () => void }) {
  const { t } = useTranslation(['stores', 'geo', 'validation']);
  const [form] = Form.useForm<Values>();
  const current = useCallQuery('deviceLocation', { id: deviceId ?? '' }, { enabled: deviceId !== null });
  const location = useLocationForm(form, t);
  const loc = current.data;

  const submit = async (v: Values) => {
    const answer = await call('deviceSetLocation', { id: deviceId as string, ...location.request(v) });
    location.warn(answer);
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
      values={loc ? locationValues(loc) : undefined}
      canSubmit={() => !location.oneCoordinate}
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
      <LocationFields
        t={t}
        testId="device-location"
        oneCoordinate={location.oneCoordinate}
        address={<Input data-testid="device-location-address" />}
      />
    </FormDialog>
  );
}
