import { theme } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DailyBarChart } from '../reports/DailyBarChart';

/** Alarm events and closed events a day. */
export default function AlarmChart({ days }: { days: readonly { day: string; events: number; closed: number }[] }) {
  const { t } = useTranslation('alarms');
  const { token } = theme.useToken();
  const bars = useMemo(
    () => [
      { name: t('report.events'), color: token.colorError, values: days.map((p) => p.events) },
      { name: t('report.closed'), color: token.colorSuccess, values: days.map((p) => p.closed) },
    ],
    [days, t, token],
  );
  return (
    <DailyBarChart
      days={useMemo(() => days.map((p) => p.day), [days])}
      bars={bars}
      label={t('report.chart')}
      height={240}
      chartKey="alarms"
      testId="alarm-chart"
    />
  );
}
