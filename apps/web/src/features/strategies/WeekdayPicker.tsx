import { WEEKDAYS } from '@marquee/protocol';
import { Checkbox } from 'antd';
import { useTranslation } from 'react-i18next';

/** The days of the week of a period (Monday 1 to Sunday 7), as checkboxes. */
export function WeekdayPicker({
  value,
  onChange,
  invalid,
  testId,
}: {
  value: number[];
  onChange: (days: number[]) => void;
  invalid?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation('strategies');
  return (
    <div role="group" aria-label={t('period.weekdays')} data-testid={testId}>
      <Checkbox.Group
        className={invalid ? 'mq-strategy-invalid' : undefined}
        value={value}
        onChange={(days) => onChange([...(days as number[])].sort())}
        options={WEEKDAYS.map((d) => ({ value: d, label: t(`weekday.${d}`) }))}
      />
    </div>
  );
}
