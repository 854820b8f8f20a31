import { theme } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DailyBarChart } from '../reports/DailyBarChart';

/** The QR code events' chart: scans a day over the range, as bars. */
export default function QrcodeChart({ series }: { series: readonly { day: string; scans: number }[] }) {
  const { t } = useTranslation('qrcode');
  const { token } = theme.useToken();
  const bars = useMemo(
    () => [{ name: t('chart.scans'), color: token.colorPrimary, values: series.map((p) => p.scans) }],
    [series, t, token],
  );
  return (
    <DailyBarChart
      days={useMemo(() => series.map((p) => p.day), [series])}
      bars={bars}
      label={t('chart.label')}
      height={220}
      chartKey="qrcode"
      testId="qrcode-chart"
    />
  );
}
