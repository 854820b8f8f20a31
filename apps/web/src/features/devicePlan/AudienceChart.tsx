import type { AudienceFigures } from '@marquee/protocol';
import { theme } from 'antd';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useBarChart } from '../home/useBarChart';

const GENDERS = ['male', 'female', 'unknown'] as const;

/**
 * The audience per age band (spec section 9), stacked by gender: the console's bar chart
 * (useBarChart, ECharts loaded on first use). A legend in the page names the colours; the figures
 * are also in the table beside it for screen readers.
 */
export default function AudienceChart({ figures }: { figures: AudienceFigures }) {
  const { t } = useTranslation('devicePlan');
  const ref = useRef<HTMLDivElement>(null);
  const { token } = theme.useToken();
  const colors = useMemo(
    () => [token.colorPrimary, token.colorWarning, token.colorTextQuaternary],
    [token.colorPrimary, token.colorWarning, token.colorTextQuaternary],
  );
  const categories = useMemo(() => figures.bands.map((b) => b.band), [figures]);
  const series = useMemo(
    () =>
      GENDERS.map((gender, i) => ({
        name: t(`gender.${gender}`),
        data: figures.bands.map((b) => b[gender]),
        color: colors[i],
        stack: 'people',
      })),
    [figures, colors, t],
  );
  useBarChart(ref, { label: t('gather.chartLabel'), categories, series, barMaxWidth: 36, integer: true }, 'gather');
  return (
    <div>
      <div ref={ref} className="mq-audience-chart" data-testid="gather-audience-chart" />
      <div className="mq-audience-legend" aria-hidden="true">
        {GENDERS.map((gender, i) => (
          <span key={gender}>
            <span className="mq-audience-swatch" style={{ background: colors[i] }} />
            {t(`gender.${gender}`)}
          </span>
        ))}
      </div>
    </div>
  );
}
