import { formatSize } from '@marquee/protocol';
import { Button, Empty, Progress, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CANCELLABLE, percentOf, type UploadItem } from './queue';
import type { UploadQueueApi } from './useUploadQueue';

const PROGRESS_STATUS = {
  queued: 'normal',
  signing: 'active',
  uploading: 'active',
  verifying: 'active',
  done: 'success',
  failed: 'exception',
  cancelled: 'normal',
} as const;

/**
 * The files of an upload queue (useUploadQueue): each with its name, size (Bytes/KB/MB/GB/TB),
 * a progress bar, its state or error, and cancel, retry and remove buttons; the total above.
 */
export function UploadQueue<T>(props: {
  queue: UploadQueueApi<T>;
  /** More to show beside a file (a done material's link, say). */
  extra?: (item: UploadItem<File, T>) => ReactNode;
  /** More to show under a file (what the server said of a done one, say). */
  below?: (item: UploadItem<File, T>) => ReactNode;
}) {
  const { t } = useTranslation('upload');
  const { queue } = props;
  if (queue.items.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty')} />;
  const done = queue.items.filter((i) => i.status === 'done').length;
  const finished = queue.items.some((i) => ['done', 'failed', 'cancelled'].includes(i.status));
  return (
    <div className="upload-queue" aria-label={t('title')}>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 8 }}>
        <Typography.Text type="secondary">
          {t('summary', {
            done,
            count: queue.items.length,
            loaded: formatSize(queue.progress.loaded),
            total: formatSize(queue.progress.total),
          })}
        </Typography.Text>
        {finished && (
          <Button size="small" type="link" onClick={queue.clearFinished}>
            {t('clearFinished')}
          </Button>
        )}
      </Space>
      <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {queue.items.map((item) => (
          <li
            key={item.id}
            data-status={item.status}
            data-testid={`upload-item-${item.name}`}
            style={{ padding: '6px 0' }}
          >
            <Space style={{ width: '100%', justifyContent: 'space-between' }}>
              <Typography.Text ellipsis style={{ maxWidth: 280 }} title={item.name}>
                {item.name}
              </Typography.Text>
              <Space size="small">
                <Typography.Text type="secondary">
                  {item.status === 'uploading'
                    ? t('sizeProgress', { loaded: formatSize(item.loaded), total: formatSize(item.size) })
                    : formatSize(item.size)}
                </Typography.Text>
                <Typography.Text type={item.status === 'failed' ? 'danger' : 'secondary'}>
                  {t(`status.${item.status}`)}
                </Typography.Text>
                {props.extra?.(item)}
                {CANCELLABLE.includes(item.status) && (
                  <Button
                    size="small"
                    onClick={() => queue.cancel(item.id)}
                    aria-label={t('cancelFile', { name: item.name })}
                    data-testid={`upload-cancel-${item.name}`}
                  >
                    {t('cancel')}
                  </Button>
                )}
                {(item.status === 'failed' || item.status === 'cancelled') && (
                  <Button
                    size="small"
                    onClick={() => queue.retry(item.id)}
                    aria-label={t('retryFile', { name: item.name })}
                  >
                    {t('retry')}
                  </Button>
                )}
                {['done', 'failed', 'cancelled'].includes(item.status) && (
                  <Button
                    size="small"
                    type="text"
                    onClick={() => queue.remove(item.id)}
                    aria-label={t('removeFile', { name: item.name })}
                  >
                    {t('remove')}
                  </Button>
                )}
              </Space>
            </Space>
            <Progress
              percent={percentOf(item)}
              status={PROGRESS_STATUS[item.status]}
              size="small"
              showInfo={false}
              aria-label={t('progressOf', { name: item.name })}
              data-testid={`upload-progress-${item.name}`}
            />
            {item.error && (
              <Typography.Text type="danger" data-testid="upload-error">
                {item.error}
              </Typography.Text>
            )}
            {props.below?.(item)}
          </li>
        ))}
      </ul>
    </div>
  );
}
