import { Card, Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DevicePicker, useDeviceParam } from './DevicePicker';
import './devicePlan.css';

/**
 * The device's current plan (/device/devicePlan): which layouts and ads a screen plays when.
 * Plans are made of ads and layouts, which come with their own modules; until then the page
 * says so for the chosen device instead of showing an invented plan.
 */
export default function DevicePlanPage() {
  const { t } = useTranslation('devicePlan');
  const [deviceId, setDeviceId] = useDeviceParam();
  return (
    <div className="mq-view mq-device-plan" data-testid="device-plan-page">
      <Card size="small" className="mq-filter-card" style={{ marginBottom: 12 }}>
        <DevicePicker value={deviceId} onChange={setDeviceId} />
      </Card>
      <Card size="small" title={t('plan.title')}>
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={
            <div data-testid="device-plan-empty">
              <Typography.Paragraph strong style={{ marginBottom: 4 }}>
                {deviceId ? t('plan.none') : t('plan.pick')}
              </Typography.Paragraph>
              <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
                {t('plan.explain')}
              </Typography.Paragraph>
            </div>
          }
        />
      </Card>
    </div>
  );
}
