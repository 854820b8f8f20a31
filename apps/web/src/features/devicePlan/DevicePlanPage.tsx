import type { PlanBar } from '@marquee/protocol';
import { Card, DatePicker, Empty, Form, Spin, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallQuery } from '../../api/queries';
import { DevicePicker, useDeviceParam } from './DevicePicker';
import './devicePlan.css';

const DAY_MINUTES = 24 * 60;
const minutes = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
};

/** The plan's rows: one per ad (or layout), in the order they first appear, with their bars by day. */
export function planRows(bars: readonly PlanBar[]) {
  const rows = new Map<
    string,
    {
      key: string;
      name: string;
      source: PlanBar['source'];
      role: PlanBar['role'];
      adNumber: string | null;
      byDay: Map<string, PlanBar[]>;
    }
  >();
  for (const bar of bars) {
    const key = `${bar.source}:${bar.id}`;
    let row = rows.get(key);
    if (!row) {
      row = { key, name: bar.name, source: bar.source, role: bar.role, adNumber: bar.adNumber, byDay: new Map() };
      rows.set(key, row);
    }
    row.byDay.set(bar.day, [...(row.byDay.get(bar.day) ?? []), bar]);
  }
  return [...rows.values()];
}

/**
 * The device's plan over time (/device/devicePlan): for a range of days (the next 7 by
 * default) the ads scheduled on it and its layout, each a row of a timeline whose bars are
 * the time periods of each day (a CSS grid: a day a column, the day's 24 hours across it).
 */
export default function DevicePlanPage() {
  const { t } = useTranslation('devicePlan');
  const [deviceId, setDeviceId] = useDeviceParam();
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const from = range?.[0].format('YYYY-MM-DD');
  const to = range?.[1].format('YYYY-MM-DD');
  const plan = useCallQuery('devicePlan', { deviceId: deviceId ?? '', from, to }, { enabled: Boolean(deviceId) });
  const days = useMemo(() => {
    if (!plan.data) return [];
    const out: string[] = [];
    for (let d = dayjs(plan.data.from); !d.isAfter(dayjs(plan.data.to)); d = d.add(1, 'day')) {
      out.push(d.format('YYYY-MM-DD'));
    }
    return out;
  }, [plan.data]);
  const rows = useMemo(() => planRows(plan.data?.bars ?? []), [plan.data]);

  return (
    <div className="mq-view mq-device-plan" data-testid="device-plan-page">
      <Card size="small" className="mq-filter-card" style={{ marginBottom: 12 }}>
        <DevicePicker value={deviceId} onChange={setDeviceId} />
        <Form layout="inline" style={{ marginTop: 12 }}>
          <Form.Item label={t('plan.range')}>
            <DatePicker.RangePicker
              value={range}
              onChange={(v) => setRange(v?.[0] && v[1] ? [v[0], v[1]] : null)}
              disabledDate={(d) => Boolean(range && Math.abs(d.diff(range[0], 'day')) > 30)}
              data-testid="device-plan-range"
            />
          </Form.Item>
        </Form>
      </Card>
      <Card
        size="small"
        title={t('plan.title')}
        extra={
          plan.data ? (
            <Typography.Text type="secondary" data-testid="device-plan-zone">
              {t('plan.zone', { zone: plan.data.timeZone })}
            </Typography.Text>
          ) : null
        }
      >
        {deviceId && plan.isLoading ? (
          <Spin />
        ) : deviceId && rows.length > 0 ? (
          <div className="mq-plan-scroll">
            <div
              className="mq-plan-grid"
              style={{ gridTemplateColumns: `minmax(180px, 240px) repeat(${days.length}, minmax(96px, 1fr))` }}
              data-testid="device-plan-grid"
            >
              <div className="mq-plan-head" />
              {days.map((day) => (
                <div key={day} className="mq-plan-head">
                  {dayjs(day).format('MM-DD ddd')}
                </div>
              ))}
              {rows.map((row) => (
                <div
                  key={row.key}
                  className="mq-plan-row"
                  style={{ display: 'contents' }}
                  data-testid="device-plan-row"
                >
                  <div className="mq-plan-name" title={row.name}>
                    <Typography.Text ellipsis>{row.name}</Typography.Text>
                    <div>
                      {row.source === 'layout' ? (
                        <Tag>{t('plan.layout')}</Tag>
                      ) : row.role ? (
                        <Tag>{t(`role.${row.role}`)}</Tag>
                      ) : null}
                      {row.adNumber ? <Typography.Text type="secondary">{row.adNumber}</Typography.Text> : null}
                    </div>
                  </div>
                  {days.map((day) => (
                    <div key={day} className="mq-plan-cell">
                      {(row.byDay.get(day) ?? []).map((bar) => {
                        const start = minutes(bar.start);
                        const end = minutes(bar.end);
                        const label = t('plan.bar', { name: bar.name, day, start: bar.start, end: bar.end });
                        return (
                          <span
                            key={`${bar.start}-${bar.end}`}
                            className={`mq-plan-bar mq-plan-bar-${bar.source === 'layout' ? 'layout' : (bar.role ?? 'loop')}`}
                            style={{
                              left: `${(start / DAY_MINUTES) * 100}%`,
                              width: `${((end - start) / DAY_MINUTES) * 100}%`,
                            }}
                            title={label}
                            aria-label={label}
                            role="img"
                          />
                        );
                      })}
                    </div>
                  ))}
                </div>
              ))}
            </div>
          </div>
        ) : (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={
              <div data-testid="device-plan-empty">
                <Typography.Paragraph strong style={{ marginBottom: 4 }}>
                  {deviceId ? t('plan.none') : t('plan.pick')}
                </Typography.Paragraph>
                <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
                  {t('plan.explain')}
                </Typography.Paragraph>
              </div>
            }
          />
        )}
      </Card>
    </div>
  );
}
