import { Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * Beside a report's title (issue 31): when the range begins before the first day counted in
 * the enterprise's present time zone (`zoneSince`, after a change of zone), says that the days
 * before it were counted in the previous zone. Nothing otherwise.
 */
export function ReportZoneNote({ from, zoneSince }: { from?: string; zoneSince?: string | null }) {
  const { t } = useTranslation('reports');
  if (!from || !zoneSince || from >= zoneSince) return null;
  const text = t('zoneSince', { since: zoneSince });
  return (
    <Tooltip title={text}>
      <Typography.Text type="warning" style={{ marginLeft: 8, fontWeight: 'normal' }} data-testid="report-zone-since">
        {text}
      </Typography.Text>
    </Tooltip>
  );
}
