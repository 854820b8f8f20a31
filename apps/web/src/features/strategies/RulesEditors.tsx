import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { PowerRules } from '@marquee/protocol';
import { Button, DatePicker, Slider, Space, TimePicker, Typography } from 'antd';
import { NoFormStyle } from 'antd/es/form/context';
import type { Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { instantText, instantValue, rowHasIssue, timeText, timeValue } from './rulesForm';
import { WeekdayPicker } from './WeekdayPicker';

const ALL_DAYS = [1, 2, 3, 4, 5, 6, 7];

/** One row of a period list: its fields, then a remove button. */
function Row({
  children,
  onRemove,
  invalid,
  testId,
}: {
  children: ReactNode;
  onRemove: () => void;
  invalid: boolean;
  testId: string;
}) {
  const { t } = useTranslation('strategies');
  return (
    <div className={`mq-strategy-row${invalid ? ' mq-strategy-row-invalid' : ''}`} data-testid={testId}>
      <Space wrap align="center" size={[12, 8]}>
        {children}
      </Space>
      <Button
        type="text"
        icon={<DeleteOutlined />}
        onClick={onRemove}
        aria-label={t('remove')}
        title={t('remove')}
        data-testid={`${testId}-remove`}
      />
    </div>
  );
}

/**
 * The rows of a list, each a Row (`${testId}-${i}`, marked when an issue lies under
 * `${issuePrefix}${i}`) whose remove drops it, then the button (`${testId}-add`, text `add`)
 * that appends `fresh()`; `children` renders row i's fields, `update` changing that row only.
 */
function Rows<P>({
  items,
  onChange,
  issues,
  issuePrefix,
  testId,
  add,
  fresh,
  children,
}: {
  items: readonly P[];
  onChange: (items: P[]) => void;
  issues: Map<string, string>;
  issuePrefix: string;
  testId: string;
  add: string;
  fresh: () => P;
  children: (item: P, i: number, update: (next: Partial<P>) => void) => ReactNode;
}) {
  return (
    <>
      {items.map((p, i) => (
        <Row
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
          key={i}
          invalid={rowHasIssue(issues, `${issuePrefix}${i}`)}
          testId={`${testId}-${i}`}
          onRemove={() => onChange(items.filter((_, j) => j !== i))}
        >
          {children(p, i, (next) => onChange(items.map((q, j) => (j === i ? { ...q, ...next } : q))))}
        </Row>
      ))}
      <Button
        type="dashed"
        icon={<PlusOutlined />}
        onClick={() => onChange([...items, fresh()])}
        data-testid={`${testId}-add`}
      >
        {add}
      </Button>
    </>
  );
}

/** A time range of a day (antd TimePicker range) over `HH:mm` strings; the rules, not the picker, order them. */
function DayRange({
  start,
  end,
  onChange,
  invalid,
  labels,
  testId,
}: {
  start: string;
  end: string;
  onChange: (start: string, end: string) => void;
  invalid: boolean;
  labels: [string, string];
  testId: string;
}) {
  return (
    <TimePicker.RangePicker
      format="HH:mm"
      order={false}
      needConfirm={false}
      allowClear={false}
      status={invalid ? 'error' : undefined}
      value={[timeValue(start), timeValue(end)]}
      placeholder={labels}
      onChange={(values) => onChange(timeText(values?.[0] as Dayjs | null), timeText(values?.[1] as Dayjs | null))}
      data-testid={testId}
      aria-label={labels.join(' – ')}
    />
  );
}

/** A rules editor as a form control: its value, the change, and the issues of the shared rules. */
interface EditorProps<V> {
  value?: V;
  onChange?: (value: V) => void;
  issues: Map<string, string>;
}

/**
 * The power strategy: weekly shutdown–startup periods (the screen is off between them) and
 * one-off shutdowns (a holiday). Inputs with an issue of the shared rules are marked; the
 * form item under it says which rule.
 */
export function PowerEditor({ value = { weekly: [], once: [] }, onChange, issues }: EditorProps<PowerRules>) {
  const { t } = useTranslation('strategies');
  // The weekly and the one-off periods: each a list of the rules, its issues under its key.
  const list = <K extends 'weekly' | 'once'>(key: K) => ({
    items: value[key] ?? [],
    onChange: (next: PowerRules[K]) => onChange?.({ ...value, [key]: next }),
    issues,
    issuePrefix: `${key}.`,
  });
  return (
    <NoFormStyle status>
      <div className="mq-strategy-editor">
        <Typography.Text strong>{t('power.weekly')}</Typography.Text>
        <Typography.Paragraph type="secondary" style={{ margin: '4px 0 8px' }}>
          {t('power.hint')}
        </Typography.Paragraph>
        <Rows
          {...list('weekly')}
          testId="strategy-power"
          add={t('power.add')}
          fresh={() => ({ weekdays: ALL_DAYS, off: '00:00', on: '06:00' })}
        >
          {(p, i, update) => (
            <>
              <WeekdayPicker
                value={p.weekdays}
                invalid={issues.has(`weekly.${i}.weekdays`)}
                onChange={(weekdays) => update({ weekdays })}
              />
              <DayRange
                start={p.off}
                end={p.on}
                labels={[t('power.off'), t('power.on')]}
                invalid={rowHasIssue(issues, `weekly.${i}`) && !issues.has(`weekly.${i}.weekdays`)}
                onChange={(off, on) => update({ off, on })}
                testId={`strategy-power-${i}-time`}
              />
            </>
          )}
        </Rows>
        <div style={{ marginTop: 16 }}>
          <Typography.Text strong>{t('power.once')}</Typography.Text>
        </div>
        <Rows
          {...list('once')}
          testId="strategy-once"
          add={t('power.addOnce')}
          fresh={() => {
            const start = instantValue(new Date().toISOString())?.add(1, 'day').hour(0).minute(0) ?? null;
            return { off: instantText(start), on: instantText(start?.hour(6) ?? null) };
          }}
        >
          {(p, i, update) => (
            <DatePicker.RangePicker
              showTime={{ format: 'HH:mm' }}
              format="YYYY-MM-DD HH:mm"
              order={false}
              allowClear={false}
              status={rowHasIssue(issues, `once.${i}`) ? 'error' : undefined}
              value={[instantValue(p.off), instantValue(p.on)]}
              placeholder={[t('power.off'), t('power.on')]}
              onChange={(values) =>
                update({ off: instantText(values?.[0] as Dayjs), on: instantText(values?.[1] as Dayjs) })
              }
              data-testid={`strategy-once-${i}-time`}
            />
          )}
        </Rows>
      </div>
    </NoFormStyle>
  );
}

export interface LevelPeriod {
  weekdays: number[];
  start: string;
  end: string;
  level: number;
}

/**
 * Periods of days and a time range each (and what `extra` adds to a row), with add and
 * remove: the level periods' and the download windows' editors.
 */
function PeriodList<P extends DownloadWindow>({
  value = [],
  onChange,
  issues,
  testId,
  empty,
  add,
  fresh,
  extra,
}: EditorProps<P[]> & {
  /** Each row's test id is `<testId>-<index>`; the add button's `<testId>-add`. */
  testId: string;
  /** Shown while there is no period. */
  empty: string;
  /** The add button's text. */
  add: string;
  /** A new period. */
  fresh: P;
  extra?: (period: P, update: (next: Partial<P>) => void) => ReactNode;
}) {
  const { t } = useTranslation('strategies');
  return (
    <NoFormStyle status>
      <div className="mq-strategy-editor">
        {value.length === 0 ? <Typography.Paragraph type="secondary">{empty}</Typography.Paragraph> : null}
        <Rows
          items={value}
          onChange={(next) => onChange?.(next)}
          issues={issues}
          issuePrefix=""
          testId={testId}
          add={add}
          fresh={() => fresh}
        >
          {(p, i, update) => (
            <>
              <WeekdayPicker
                value={p.weekdays}
                invalid={issues.has(`${i}.weekdays`)}
                onChange={(weekdays) => update({ weekdays } as Partial<P>)}
              />
              <DayRange
                start={p.start}
                end={p.end}
                labels={[t('period.start'), t('period.end')]}
                invalid={issues.has(`${i}.start`) || issues.has(`${i}.end`)}
                onChange={(start, end) => update({ start, end } as Partial<P>)}
                testId={`${testId}-${i}-time`}
              />
              {extra?.(p, update)}
            </>
          )}
        </Rows>
      </div>
    </NoFormStyle>
  );
}

/** Volume or brightness periods: days, a time range and a level each. */
export function LevelPeriodsEditor(props: EditorProps<LevelPeriod[]> & { testId: string }) {
  const { t } = useTranslation('strategies');
  return (
    <PeriodList
      {...props}
      empty={t('level.none')}
      add={t('level.add')}
      fresh={{ weekdays: ALL_DAYS, start: '08:00', end: '20:00', level: 50 }}
      extra={(p, update) => (
        <>
          <Slider
            style={{ width: 160 }}
            min={0}
            max={100}
            value={p.level}
            onChange={(level) => update({ level })}
            aria-label={t('level.level')}
          />
          <span className="mq-strategy-level">{p.level}</span>
        </>
      )}
    />
  );
}

export interface DownloadWindow {
  weekdays: number[];
  start: string;
  end: string;
}

/** Download windows: days and a time range each; none means any time. */
export function WindowsEditor(props: EditorProps<DownloadWindow[]>) {
  const { t } = useTranslation('strategies');
  return (
    <PeriodList
      {...props}
      testId="strategy-window"
      empty={t('download.anyTime')}
      add={t('download.add')}
      fresh={{ weekdays: ALL_DAYS, start: '01:00', end: '05:00' }}
    />
  );
}
