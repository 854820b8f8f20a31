import { formatTime, MONITOR_PHOTO_TYPES, type MonitorPhoto } from '@marquee/protocol';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Col,
  Descriptions,
  Empty,
  Image,
  Popconfirm,
  Progress,
  Result,
  Row,
  Skeleton,
  Space,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { domainKey, useCallMutation, useCallQuery } from '../../api/queries';
import { confirmOkProps } from '../../components/ConfirmAction';
import { StorageRefused } from '../../components/upload';
import { PhotoFlags, TaskStateTag } from './monitorLook';
import { photoProblem, uploadTaskPhoto } from './photoUpload';

/**
 * /operate/taskDetail?id= (monitoring.taskInfo): one monitoring task — plan, enterprise, screen
 * and its address, monitor, state, dates, due time, the ads to watch — and its photographs with
 * their checks (far from the screen, taken when none of the ads was scheduled; where time and
 * place came from). Opening it as its monitor marks a task pending view as pending
 * (monitoring.taskView). The monitor uploads photographs (photoUpload.ts: the browser's time and,
 * if permitted, its position go with each) and completes the task once it has enough of them;
 * the plan's owner closes and reopens it. Every action asks first.
 */
export default function TaskDetailPage() {
  const { t, i18n } = useTranslation('monitoring');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const info = useCallQuery('monitoringTaskInfo', { id }, { enabled: Boolean(id) });
  const view = useCallMutation('monitoringTaskView', { silent: true });
  const complete = useCallMutation('monitoringTaskComplete', { success: t('detail.completedToast') });
  const close = useCallMutation('monitoringTaskClose', { success: t('detail.closedToast') });
  const reopen = useCallMutation('monitoringTaskReopen', { success: t('detail.reopenedToast') });
  const [progress, setProgress] = useState<number | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const viewed = useRef('');

  const data = info.data;
  // The monitor opened a task it had not seen: pending view becomes pending.
  useEffect(() => {
    if (!data?.isMonitor || data.task.state !== 'pendingView' || data.task.closed) return;
    if (viewed.current === data.task.id) return;
    viewed.current = data.task.id;
    view.mutate({ id: data.task.id });
  }, [data, view]);

  if (!id) return <Result status="404" title={t('detail.noId')} />;
  if (info.isPending)
    return (
      <div className="mq-view">
        <Skeleton active paragraph={{ rows: 8 }} />
      </div>
    );
  if (!data) return <Result status="warning" title={t('detail.loadFailed')} />;
  const { task, ads, device, photos, isMonitor, canManage } = data;
  const open = !task.closed && (task.state === 'pendingView' || task.state === 'pending');
  const missing = Math.max(0, task.photosRequired - task.photos);

  const upload = async (file: File) => {
    const problem = photoProblem(file);
    if (problem) {
      void message.error(t(`upload.${problem}`));
      return;
    }
    setProgress(0);
    try {
      const photo = await uploadTaskPhoto(task.id, file, i18n.language, setProgress);
      if (photo.far || photo.scheduled === false) void message.warning(t('upload.flagged'));
      else void message.success(t('upload.done'));
    } catch (error) {
      // The API client has shown a server refusal; the storage's is shown here.
      if (error instanceof StorageRefused) void message.error(error.message);
    } finally {
      setProgress(null);
      void queryClient.invalidateQueries({ queryKey: domainKey('monitoring') });
    }
  };

  const actions = (
    <Space wrap>
      {isMonitor && open ? (
        <>
          <input
            ref={fileInput}
            type="file"
            accept={MONITOR_PHOTO_TYPES.join(',')}
            capture="environment"
            style={{ display: 'none' }}
            data-testid="monitor-task-file"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void upload(file);
            }}
          />
          <Button
            onClick={() => fileInput.current?.click()}
            loading={progress !== null}
            data-testid="monitor-task-upload"
          >
            {t('detail.upload')}
          </Button>
          <Popconfirm
            title={t('detail.completeConfirm')}
            description={t('detail.completeDescription', { count: task.photos })}
            okText={t('detail.complete')}
            cancelText={t('common.cancel')}
            okButtonProps={confirmOkProps()}
            disabled={missing > 0}
            onConfirm={() => complete.mutateAsync({ id: task.id }).catch(() => undefined)}
          >
            <Tooltip title={missing > 0 ? t('detail.missing', { count: missing }) : undefined}>
              <Button type="primary" disabled={missing > 0} data-testid="monitor-task-complete">
                {t('detail.complete')}
              </Button>
            </Tooltip>
          </Popconfirm>
        </>
      ) : null}
      {canManage && !task.closed ? (
        <Popconfirm
          title={t('detail.closeConfirm')}
          description={task.state === 'completed' ? undefined : t('detail.closeDescription')}
          okText={t('detail.close')}
          cancelText={t('common.cancel')}
          okButtonProps={confirmOkProps(true)}
          onConfirm={() => close.mutateAsync({ id: task.id }).catch(() => undefined)}
        >
          <Button danger data-testid="monitor-task-close">
            {t('detail.close')}
          </Button>
        </Popconfirm>
      ) : null}
      {canManage && task.closed ? (
        <Popconfirm
          title={t('detail.reopenConfirm')}
          okText={t('detail.reopen')}
          cancelText={t('common.cancel')}
          okButtonProps={confirmOkProps()}
          onConfirm={() => reopen.mutateAsync({ id: task.id }).catch(() => undefined)}
        >
          <Button data-testid="monitor-task-reopen">{t('detail.reopen')}</Button>
        </Popconfirm>
      ) : null}
    </Space>
  );

  return (
    <div className="mq-view" data-testid="monitor-task-detail">
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        <Card
          size="small"
          title={
            <Space wrap>
              <span>{t('detail.title', { screen: task.deviceName })}</span>
              <span data-testid="monitor-task-state">
                <TaskStateTag state={task.state} closed={task.closed} />
              </span>
            </Space>
          }
          extra={actions}
        >
          {progress !== null ? <Progress percent={progress} size="small" data-testid="monitor-task-progress" /> : null}
          <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }}>
            <Descriptions.Item label={t('task.plan')}>
              {canManage ? (
                <Link to={`/operate/monitorTask?planId=${encodeURIComponent(task.planId)}`}>{task.planName}</Link>
              ) : (
                task.planName
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('task.enterprise')}>{task.entName}</Descriptions.Item>
            <Descriptions.Item label={t('task.monitor')}>{task.monitorName}</Descriptions.Item>
            <Descriptions.Item label={t('task.screen')}>{task.deviceName}</Descriptions.Item>
            <Descriptions.Item label={t('task.address')}>{task.deviceAddress ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={t('detail.position')}>
              {device.latitude !== null && device.longitude !== null
                ? `${device.latitude.toFixed(5)}, ${device.longitude.toFixed(5)}`
                : t('detail.noPosition')}
            </Descriptions.Item>
            <Descriptions.Item label={t('task.period')}>
              {task.startDate} ~ {task.endDate}
            </Descriptions.Item>
            <Descriptions.Item label={t('task.dueAt')}>{formatTime(task.dueAt)}</Descriptions.Item>
            <Descriptions.Item label={t('task.completedAt')}>{formatTime(task.completedAt)}</Descriptions.Item>
            <Descriptions.Item label={t('task.photos')}>
              <span data-testid="monitor-task-photo-count">
                {task.photos} / {task.photosRequired}
              </span>
            </Descriptions.Item>
            <Descriptions.Item label={t('plan.ads')} span={2}>
              <Space size={4} wrap>
                {ads.map((a) => (
                  <Tag key={a.id}>{a.name}</Tag>
                ))}
              </Space>
            </Descriptions.Item>
          </Descriptions>
          {isMonitor && open ? (
            <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
              {t('detail.uploadHint')}
            </Typography.Paragraph>
          ) : null}
        </Card>
        <Card size="small" title={t('detail.photos', { count: photos.length })}>
          {photos.length === 0 ? (
            <Empty description={t('detail.noPhotos')} data-testid="monitor-task-no-photos" />
          ) : (
            <Row gutter={[12, 12]}>
              {photos.map((p: MonitorPhoto) => (
                <Col key={p.id} xs={24} sm={12} md={8} lg={6} data-testid={`monitor-photo-${p.id}`}>
                  <Card
                    size="small"
                    cover={
                      p.url ? (
                        <Image src={p.url} alt={t('detail.photoAlt')} height={160} style={{ objectFit: 'cover' }} />
                      ) : undefined
                    }
                  >
                    <Space orientation="vertical" size={4}>
                      <Typography.Text>
                        {t('photo.takenAt')}: {formatTime(p.takenAt)}
                      </Typography.Text>
                      <PhotoFlags photo={p} />
                    </Space>
                  </Card>
                </Col>
              ))}
            </Row>
          )}
        </Card>
      </Space>
    </div>
  );
}
