import { formatTime, type MonitorPhoto } from '@marquee/protocol';
import { Alert, Card, Col, Empty, Image, Row, Skeleton, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCallQuery } from '../../api/queries';
import { PhotoFlags, TaskStateTag } from './monitorLook';

/**
 * The monitors' evidence of one ad, beside its proof of play in the ad report (issue 30,
 * monitoring.adEvidence): each monitoring task of the ad's plans — screen, monitor, state — with
 * its photographs (thumbnail, time, position and the checks: far from the screen, taken when no
 * ad of the plan was scheduled). An empty state when no monitor watched the ad.
 */
export function AdEvidence({ adId }: { adId: string }) {
  const { t } = useTranslation('monitoring');
  const q = useCallQuery('monitoringAdEvidence', { adId }, { enabled: Boolean(adId) });
  const tasks = q.data;

  let body: React.ReactNode;
  if (q.isError && !tasks) {
    body = <Alert type="error" showIcon title={t('evidence.loadFailed')} data-testid="ad-evidence-error" />;
  } else if (!tasks) {
    body = <Skeleton active paragraph={{ rows: 3 }} />;
  } else if (tasks.length === 0) {
    body = <Empty description={t('evidence.empty')} data-testid="ad-evidence-empty" />;
  } else {
    body = (
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        {tasks.map((task) => (
          <Card
            key={task.taskId}
            size="small"
            type="inner"
            data-testid={`ad-evidence-task-${task.taskId}`}
            title={
              <Space size={8} wrap>
                <span>{task.deviceName}</span>
                <Typography.Text type="secondary">{t('evidence.monitor', { name: task.monitorName })}</Typography.Text>
                <TaskStateTag state={task.state} />
              </Space>
            }
          >
            {task.photos.length === 0 ? (
              <Typography.Text type="secondary">{t('evidence.noPhotos')}</Typography.Text>
            ) : (
              <Row gutter={[12, 12]}>
                {task.photos.map((p: MonitorPhoto) => (
                  <Col key={p.id} xs={24} sm={12} md={8} lg={6} data-testid={`ad-evidence-photo-${p.id}`}>
                    <Space orientation="vertical" size={4}>
                      {p.url ? (
                        <Image
                          src={p.url}
                          alt={t('evidence.photoAlt', { screen: task.deviceName })}
                          width={160}
                          height={120}
                          style={{ objectFit: 'cover' }}
                        />
                      ) : null}
                      <Typography.Text>
                        {t('photo.takenAt')}: {formatTime(p.takenAt)}
                      </Typography.Text>
                      <Typography.Text type="secondary">
                        {p.latitude !== null && p.longitude !== null
                          ? t('evidence.position', {
                              latitude: p.latitude.toFixed(5),
                              longitude: p.longitude.toFixed(5),
                            })
                          : t('photo.noPosition')}
                      </Typography.Text>
                      <PhotoFlags photo={p} />
                    </Space>
                  </Col>
                ))}
              </Row>
            )}
          </Card>
        ))}
      </Space>
    );
  }
  return (
    <Card size="small" style={{ marginTop: 12 }} title={t('evidence.title')} data-testid="ad-evidence">
      {body}
    </Card>
  );
}
