import type { MonitorPhoto, MonitorTaskStateName } from '@marquee/protocol';
import { Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** The monitoring pages' shared looks (issue 30): a task state's tag and a photograph's flags. */

const STATE_COLOR: Record<MonitorTaskStateName, string> = {
  pendingView: 'blue',
  pending: 'processing',
  completed: 'success',
  notCompleted: 'default',
  overdue: 'error',
};

/** A task's state (spec section 4), with "closed" beside it when its owner closed it. */
export function TaskStateTag({ state, closed = false }: { state: MonitorTaskStateName; closed?: boolean }) {
  const { t } = useTranslation('monitoring');
  return (
    <Space size={4}>
      <Tag color={STATE_COLOR[state]}>{t(`state.${state}`)}</Tag>
      {closed ? <Tag>{t('task.closed')}</Tag> : null}
    </Space>
  );
}

/** A photograph's checks: far from the screen, taken when none of the ads was scheduled, where time and place came from. */
export function PhotoFlags({ photo }: { photo: MonitorPhoto }) {
  const { t } = useTranslation('monitoring');
  return (
    <Space size={4} wrap data-testid={`monitor-photo-flags-${photo.id}`}>
      {photo.far ? (
        <Tag color="error">{t('photo.far', { metres: photo.distanceM ?? 0 })}</Tag>
      ) : photo.distanceM !== null ? (
        <Tag color="success">{t('photo.near', { metres: photo.distanceM })}</Tag>
      ) : (
        <Tag>{t('photo.noPosition')}</Tag>
      )}
      {photo.scheduled === false ? <Tag color="warning">{t('photo.unscheduled')}</Tag> : null}
      {photo.scheduled === true ? <Tag color="success">{t('photo.scheduled')}</Tag> : null}
      {photo.scheduled === null ? <Tag>{t('photo.noTime')}</Tag> : null}
      <Tag>{t(`photo.source.${photo.source}`)}</Tag>
    </Space>
  );
}
