import {
  ALARM_EVENT_STATES,
  ALARM_POLL_MS,
  type AlarmEvent,
  type Endpoints,
  formatTime,
  type Req,
} from '@marquee/protocol';
import type { ButtonProps } from 'antd';
import {
  Button,
  Card,
  Col,
  Descriptions,
  Drawer,
  Image,
  Input,
  Modal,
  Row,
  Space,
  Statistic,
  Tabs,
  Tag,
  Timeline,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCallMutation, useCallQuery } from '../../api/queries';
import { ListPage, useListPage } from '../../components/listPage';
import { DeviceLocationDialog } from '../geo/DeviceLocationDialog';

const STATE_COLOR: Record<string, string> = {
  raised: 'red',
  acknowledged: 'orange',
  handled: 'blue',
  closed: 'default',
};
const today = () => new Date().toISOString().slice(0, 10);

/**
 * /alarm (issue 30): the alarm events, live (polled every ALARM_POLL_MS): figures on top, state
 * tabs with counts, filters, a detail drawer with the timeline and the acknowledge / handle / close
 * actions (closing asks for a note).
 */
export default function AlarmPage() {
  const { t } = useTranslation('alarms');
  const [shown, setShown] = useState<string | null>(null);
  const regions = useCallQuery('alarmRegionList', {});
  const list = useListPage({
    id: 'alarmEvents',
    endpoint: 'alarmEventList',
    scope: ['state'],
    refetchInterval: ALARM_POLL_MS,
    filters: [
      { key: 'keyword', label: t('filter.keyword'), width: 200, maxLength: 64 },
      {
        key: 'regionId',
        kind: 'select',
        label: t('filter.region'),
        options: (regions.data?.data ?? []).map((r) => ({ value: r.id, label: r.name })),
        placeholder: t('filter.allRegions'),
        width: 180,
        testId: 'alarm-filter-region',
      },
      { key: 'range', kind: 'range', from: 'from', to: 'to', label: t('filter.range') },
    ],
    request: (filters, page) => ({ page: page.page, size: page.size, ...filters }) as Req<Endpoints['alarmEventList']>,
    columns: [
      { prop: 'raisedAt', label: t('col.raisedAt'), width: 170, slot: (v: string) => formatTime(v) },
      {
        prop: 'deviceName',
        label: t('col.device'),
        width: 180,
        ellipsis: true,
        slot: (v: string, row: AlarmEvent) => (row.deviceNumber ? `${v} (${row.deviceNumber})` : v),
      },
      { prop: 'address', label: t('col.address'), width: 200, ellipsis: true, slot: (v: string | null) => v ?? '—' },
      { prop: 'regionNames', label: t('col.regions'), width: 160, slot: (v: string[]) => v.join(', ') || '—' },
      {
        prop: 'state',
        label: t('col.state'),
        width: 110,
        slot: (v: string) => <Tag color={STATE_COLOR[v]}>{t(`state.${v}`)}</Tag>,
      },
      {
        prop: 'delivered',
        label: t('col.notified'),
        width: 110,
        slot: (v: number, row: AlarmEvent) => `${v} / ${row.notified}`,
      },
    ],
    operations: [
      {
        key: 'open',
        label: t('detail.open'),
        handler: (row: AlarmEvent) => setShown(row.id),
        testId: (row: AlarmEvent) => `alarm-open-${row.id}`,
      },
    ],
  });
  const count = useCallQuery('alarmEventCount', {}, { refetchInterval: ALARM_POLL_MS });
  const todayCount = useCallQuery(
    'alarmReport',
    { from: today(), to: today() },
    { refetchInterval: ALARM_POLL_MS * 10, silent: true },
  );
  const state = (list.request as { state?: string }).state;
  const meanAck = todayCount.data?.totals.meanAckSec;

  const figures = (
    <Card size="small" style={{ marginBottom: 12 }} data-testid="alarm-figures">
      <Row gutter={16}>
        <Col xs={8}>
          <Statistic title={t('fig.open')} value={count.data?.open ?? '—'} data-testid="alarm-open-count" />
        </Col>
        <Col xs={8}>
          <Statistic title={t('fig.today')} value={todayCount.data?.totals.events ?? '—'} />
        </Col>
        <Col xs={8}>
          <Statistic
            title={t('fig.meanAck')}
            value={meanAck == null ? '—' : t('seconds', { count: Math.round(meanAck) })}
          />
        </Col>
      </Row>
      <Tabs
        style={{ marginTop: 8 }}
        activeKey={state ?? 'all'}
        onChange={(k) => list.refine({ state: k === 'all' ? undefined : k })}
        items={[
          { key: 'all', label: t('state.all') },
          ...ALARM_EVENT_STATES.map((s) => ({ key: s, label: t(`state.${s}`) })),
        ]}
      />
    </Card>
  );

  return (
    <>
      <ListPage
        list={list}
        title={t('title')}
        testPrefix="alarm"
        above={figures}
        rowTestId={(row) => `alarm-row-${row.id}`}
        empty={t('empty')}
        showTotal={(total) => t('total', { count: total })}
      />
      <AlarmDrawer id={shown} onClose={() => setShown(null)} />
    </>
  );
}

function AlarmDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const { t } = useTranslation('alarms');
  const info = useCallQuery(
    'alarmEventInfo',
    { id: id ?? '' },
    { enabled: Boolean(id), refetchInterval: ALARM_POLL_MS },
  );
  const [closing, setClosing] = useState(false);
  const [note, setNote] = useState('');
  const [map, setMap] = useState<string | null>(null);
  const act = useCallMutation('alarmEventAct', { success: t('act.done'), onSuccess: () => setClosing(false) });
  const ev = info.data?.event;
  return (
    <Drawer open={Boolean(id)} onClose={onClose} width={560} title={t('detail.title')} data-testid="alarm-drawer">
      {ev && (
        <Space direction="vertical" style={{ width: '100%' }} size={16}>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('col.device')}>
              <Link to={`/device?keyword=${encodeURIComponent(ev.deviceNumber ?? ev.deviceName)}`}>
                {ev.deviceName}
              </Link>
            </Descriptions.Item>
            <Descriptions.Item label={t('col.address')}>
              <Space>
                {ev.address ?? '—'}
                {ev.latitude != null && (
                  <Button size="small" type="link" onClick={() => setMap(ev.deviceId)}>
                    {t('detail.map')}
                  </Button>
                )}
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label={t('col.regions')}>{ev.regionNames.join(', ') || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('col.state')}>
              <Tag color={STATE_COLOR[ev.state]} data-testid="alarm-state">
                {t(`state.${ev.state}`)}
              </Tag>
            </Descriptions.Item>
          </Descriptions>
          {ev.screenshotUrl ? (
            <Image src={ev.screenshotUrl} alt={t('detail.screenshot')} width="100%" data-testid="alarm-screenshot" />
          ) : (
            <Tag>{t('detail.noScreenshot')}</Tag>
          )}
          <Timeline
            data-testid="alarm-timeline"
            items={(info.data?.steps ?? []).map((s) => ({
              color: s.outcome === 'failed' ? 'red' : s.kind === 'closed' ? 'gray' : 'blue',
              children: (
                <div>
                  <strong>{t(`step.${s.kind}`)}</strong> {formatTime(s.at)}
                  {s.actorName && <div>{s.actorName}</div>}
                  {s.kind === 'notified' && (
                    <div>
                      {s.contactName} {s.target} ({t(`channel.${s.channel === 'email' ? 'email' : 'sms'}`)}) —{' '}
                      {t(`outcome.${s.outcome ?? 'failed'}`)}
                      {s.error ? `: ${s.error}` : ''}
                    </div>
                  )}
                  {s.note && <div>{s.note}</div>}
                </div>
              ),
            }))}
          />
          <Space>
            <Button
              disabled={ev.state !== 'raised'}
              loading={act.isPending}
              onClick={() => act.mutate({ id: ev.id, action: 'acknowledge', note: '' })}
              data-testid="alarm-ack"
            >
              {t('act.acknowledge')}
            </Button>
            <Button
              disabled={ev.state === 'handled' || ev.state === 'closed'}
              loading={act.isPending}
              onClick={() => act.mutate({ id: ev.id, action: 'handle', note: '' })}
              data-testid="alarm-handle"
            >
              {t('act.handle')}
            </Button>
            <Button danger disabled={ev.state === 'closed'} onClick={() => setClosing(true)} data-testid="alarm-close">
              {t('act.close')}
            </Button>
          </Space>
        </Space>
      )}
      <Modal
        open={closing}
        title={t('act.closeTitle')}
        okText={t('act.close')}
        okButtonProps={{ danger: true, disabled: !note.trim(), 'data-testid': 'alarm-close-ok' } as ButtonProps}
        confirmLoading={act.isPending}
        onCancel={() => setClosing(false)}
        onOk={() => ev && act.mutate({ id: ev.id, action: 'close', note })}
      >
        <Input.TextArea
          rows={3}
          maxLength={500}
          showCount
          value={note}
          placeholder={t('act.noteHint')}
          onChange={(e) => setNote(e.target.value)}
          data-testid="alarm-close-note"
        />
      </Modal>
      <DeviceLocationDialog deviceId={map} onClose={() => setMap(null)} />
    </Drawer>
  );
}
