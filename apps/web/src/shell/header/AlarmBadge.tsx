import { AlertOutlined } from '@ant-design/icons';
import { ALARM_POLL_MS, Perm } from '@marquee/protocol';
import { Badge } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCallQuery } from '../../api/queries';
import { useCan } from '../../session/useCan';

/**
 * The header's live alarm count (issue 30): the open alarm events (alarm.eventCount, polled every
 * ALARM_POLL_MS) for users with the alarm permission, linking to /alarm. Nothing when none is open.
 */
export default function AlarmBadge() {
  const can = useCan();
  const allowed = can(Perm.alarm);
  const { t } = useTranslation('alarms');
  const count = useCallQuery('alarmEventCount', {}, { enabled: allowed, refetchInterval: ALARM_POLL_MS, silent: true });
  const open = count.data?.open ?? 0;
  if (!allowed || open <= 0) return null;
  return (
    <Link
      to="/alarm"
      aria-label={t('header.open', { count: open })}
      data-testid="header-alarm"
      className="mq-header-alarm"
    >
      <Badge count={open} overflowCount={99} size="small">
        <AlertOutlined style={{ fontSize: 18, color: '#ff4d4f' }} />
      </Badge>
    </Link>
  );
}
