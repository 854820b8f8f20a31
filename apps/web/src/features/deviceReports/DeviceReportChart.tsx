import { theme } from 'antd';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useBarChart } from '../home/useBarChart';

export interface ChartDay {
  day: string;
  plays: number;
  onlineSec: number;
  ads: number;
}

/**
 * A device's days as bars: plays, online hours and distinct ads (the console's bar chart,
 * loaded on first use). The same figures are in the table below it.
 */
export default function DeviceReportChart({ days }: { days: readonly ChartDay[] }) {
  const { t } = useTranslation('deviceReports');
  const ref = useRef<HTMLDivElement>(null);
  const { token } = theme.useToken();
  const categories = useMemo(() => days.map((d) => d.day.slice(5)), [days]);
  const series = useMemo(
    () => [
      { name: t('chart.plays'), data: days.map((d) => d.plays), color: token.colorPrimary },
      {
        name: t('chart.online'),
        data: days.map((d) => Math.round((d.onlineSec / 3600) * 10) / 10),
        color: token.colorSuccess,
      },
      { name: t('chart.ads'), data: days.map((d) => d.ads), color: token.colorWarning },
    ],
    [days, t, token],
  );
  useBarChart(ref, { label: t('chart.label'), categories, series }, 'deviceReports');
  return <div ref={ref} className="mq-device-report-chart" data-testid="device-report-chart" />;
}
