import { Card, Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DevicePicker, useDeviceParam } from './DevicePicker';
import './devicePlan.css';

/**
 * A device's playlist (/device/playlist): the order in which its ads play. Ads come with
 * their own module; until then the page says so honestly for the chosen device.
 */
export default function PlaylistPage() {
  const { t } = useTranslation('devicePlan');
  const [deviceId, setDeviceId] = useDeviceParam();
  return (
    <div className="mq-view mq-device-playlist" data-testid="device-playlist-page">
      <Card size="small" className="mq-filter-card" style={{ marginBottom: 12 }}>
        <DevicePicker value={deviceId} onChange={setDeviceId} />
      </Card>
      <Card size="small" title={t('playlist.title')}>
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={
            <div data-testid="device-playlist-empty">
              <Typography.Paragraph strong style={{ marginBottom: 4 }}>
                {deviceId ? t('playlist.none') : t('plan.pick')}
              </Typography.Paragraph>
              <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
                {t('playlist.explain')}
              </Typography.Paragraph>
            </div>
          }
        />
      </Card>
    </div>
  );
}
