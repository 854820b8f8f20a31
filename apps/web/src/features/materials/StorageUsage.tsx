import { formatSize } from '@marquee/protocol';
import { Progress, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCallQuery } from '../../api/queries';

/** Share of the quota above which the bar turns to a warning. */
const WARN_RATIO = 0.9;

/**
 * The enterprise's storage use against its quota (issue 10; the market's storage packs of
 * 200 G raise the quota): a bar and "used / quota" in Bytes/KB/MB/GB/TB. In the library and
 * in the personal centre.
 */
export function StorageUsage() {
  const { t } = useTranslation('material');
  const usage = useCallQuery('materialStorageUsage', {});
  if (usage.isLoading) return <Skeleton.Input active size="small" block />;
  if (!usage.data) return <Typography.Text type="secondary">{t('usage.unknown')}</Typography.Text>;
  const { usedBytes: used, quotaBytes: quota } = usage.data;
  const ratio = quota > 0 ? used / quota : 0;
  return (
    <div className="mq-storage-usage" data-testid="storage-usage">
      <Progress
        percent={Math.min(100, Math.round(ratio * 1000) / 10)}
        status={ratio >= 1 ? 'exception' : ratio >= WARN_RATIO ? 'active' : 'normal'}
        strokeColor={ratio >= WARN_RATIO && ratio < 1 ? '#faad14' : undefined}
        showInfo={false}
        aria-label={t('usage.title')}
      />
      <Typography.Text type="secondary" data-testid="storage-usage-text">
        {t('usage.text', { used: formatSize(used), quota: formatSize(quota) })}
      </Typography.Text>
      {ratio >= 1 ? (
        <Typography.Text type="danger" className="mq-storage-full">
          {t('usage.full')}
        </Typography.Text>
      ) : null}
    </div>
  );
}
