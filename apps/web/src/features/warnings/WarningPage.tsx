import { SettingOutlined } from '@ant-design/icons';
import {
  findRoute,
  formatTime,
  WARNING_KINDS,
  WARNING_LEVELS,
  WARNING_STATES,
  type Warning,
  type WarningKind,
  type WarningLevel,
  type WarningState,
} from '@marquee/protocol';
import { Button, Popconfirm, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCallMutation } from '../../api/queries';
import { confirmOkProps } from '../../components/ConfirmAction';
import { tagColumn, timeColumn } from '../../components/columns';
import { ExportButton } from '../../components/ExportDialog';
import { ListPage, useListPage } from '../../components/listPage';
import { NotForMonitor } from '../../components/MonitorGuard';
import { useCan } from '../../session/useCan';
import { LEVEL_COLORS, linkRoute, objectLink, STATE_COLORS } from './look';
import { SettingsDialog } from './SettingsDialog';

/** A warning's figures in a few words (the expiry, the failed downloads, the plays...). */
function Detail({ w }: { w: Warning }) {
  const { t } = useTranslation('warnings');
  const d = w.detail;
  switch (w.kind) {
    case 'deviceOffline':
    case 'deviceLongOffline':
      return d.lastSeenAt ? t('detail.lastSeen', { time: formatTime(String(d.lastSeenAt)) }) : null;
    case 'adExpiring':
      return <>{t('detail.endsAt', { time: formatTime(String(d.endAt)) })}</>;
    case 'deviceExpiring':
      return <>{t('detail.expiresAt', { time: formatTime(String(d.expireAt)) })}</>;
    case 'iotCardExpiring':
    case 'renewalFailing':
      return <>{t('detail.expiresAt', { time: formatTime(String(d.expiresAt)) })}</>;
    case 'underDelivering':
      return (
        <>{t('detail.delivery', { day: d.day, delivered: d.delivered, expected: d.expected, percent: d.percent })}</>
      );
    case 'downloadFailing':
      return <>{t('detail.failed', { count: Number(d.failed ?? 0), error: d.error ?? '' })}</>;
    case 'storageNearlyFull':
      return <>{t('detail.percent', { percent: d.percent })}</>;
    default:
      return null;
  }
}

/**
 * The warning centre (/operate/warning; issue 30): the warnings the server's job computes from
 * the facts (devices offline and long offline, ads and devices expiring, screens
 * under-delivering, downloads failing, storage nearly full, renewals failing, IoT cards near
 * their package's end), with the live ones counted per kind above the list (a count filters by
 * its kind). Filters in the URL: kind, level, state (default: not resolved), object, time.
 * Acknowledge one or the selected ones; export to Excel; choose who is notified of which kinds.
 */
export default function WarningPage() {
  const { t } = useTranslation('warnings');
  const can = useCan();
  const [selected, setSelected] = useState<string[]>([]);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const acknowledge = useCallMutation('warningsAcknowledge', {
    success: (answer) => t('ack.done', { count: answer.updated }),
  });

  const list = useListPage({
    id: 'warnings',
    endpoint: 'warningsList',
    onFilter: () => setSelected([]),
    refetchInterval: 60_000,
    filters: [
      {
        key: 'kind',
        kind: 'select',
        label: t('col.kind'),
        placeholder: t('filter.all'),
        width: 190,
        options: WARNING_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) })),
      },
      {
        key: 'level',
        kind: 'select',
        label: t('col.level'),
        placeholder: t('filter.all'),
        width: 110,
        options: WARNING_LEVELS.map((l) => ({ value: l, label: t(`level.${l}`) })),
      },
      {
        key: 'state',
        kind: 'select',
        label: t('col.state'),
        width: 130,
        defaultValue: 'live',
        options: [
          { value: 'live', label: t('state.live') },
          ...WARNING_STATES.map((s) => ({ value: s, label: t(`state.${s}`) })),
          { value: 'all', label: t('filter.all') },
        ],
      },
      {
        key: 'keyword',
        label: t('filter.keyword'),
        placeholder: t('filter.keywordPlaceholder'),
        maxLength: 64,
        width: 180,
      },
      { key: 'from', kind: 'range', from: 'from', to: 'to', label: t('filter.time'), wholeDays: true },
    ],
    request: (filters, page) => {
      const { state, ...rest } = filters as Record<string, unknown>;
      const s = (state as string | undefined) ?? 'live';
      return { ...rest, ...(s === 'all' ? {} : { state: s }), page: page.page, size: page.size } as never;
    },
    columns: [
      tagColumn<Warning>(
        'level',
        t('col.level'),
        (v) => ({ color: LEVEL_COLORS[v as WarningLevel], text: t(`level.${v}`) }),
        {
          width: 90,
        },
      ),
      { prop: 'kind', label: t('col.kind'), width: 170, slot: (v: WarningKind) => t(`kind.${v}`) },
      {
        prop: 'objectName',
        label: t('col.object'),
        width: 220,
        ellipsis: true,
        slot: (v: string, row) => {
          const link = objectLink(row);
          const route = findRoute(linkRoute(link));
          const name = v || row.objectId;
          return route && can(route.permission) ? (
            <Link to={link} data-testid="warnings-object-link">
              {name}
            </Link>
          ) : (
            <span>{name}</span>
          );
        },
      },
      { prop: 'detail', label: t('col.detail'), width: 240, slot: (_v: unknown, row) => <Detail w={row} /> },
      timeColumn<Warning>('since', t('col.since')),
      tagColumn<Warning>(
        'state',
        t('col.state'),
        (v) => ({ color: STATE_COLORS[v as WarningState], text: t(`state.${v}`) }),
        {
          width: 100,
        },
      ),
      {
        prop: 'acknowledgedByName',
        label: t('col.handled'),
        width: 200,
        slot: (_v: unknown, row) =>
          row.state === 'acknowledged' ? (
            <span>{t('ack.by', { name: row.acknowledgedByName ?? '-', time: formatTime(row.acknowledgedAt) })}</span>
          ) : row.state === 'resolved' ? (
            <Typography.Text type="secondary">
              {t('ack.resolvedAt', { time: formatTime(row.resolvedAt) })}
            </Typography.Text>
          ) : (
            '-'
          ),
      },
    ],
    operations: [
      {
        key: 'acknowledge',
        label: t('ack.one'),
        isShow: (row) => row.state === 'open',
        handler: (row) => acknowledge.mutateAsync({ ids: [row.id] }),
        confirm: (row) => ({ title: t('ack.title', { name: row.objectName }), description: t('ack.description') }),
        notForMonitor: true,
        testId: () => 'warnings-ack',
      },
    ],
  });

  const counts = list.query.data && 'counts' in list.query.data ? list.query.data.counts : [];
  const current = (list.state.filters as Record<string, string | undefined>).kind;

  return (
    <ListPage
      list={list}
      title={t('title')}
      testPrefix="warnings"
      toolbar={
        <Space wrap>
          {selected.length > 0 ? (
            <NotForMonitor>
              <Popconfirm
                title={t('ack.batchTitle', { count: selected.length })}
                description={t('ack.description')}
                okText={t('ack.one')}
                cancelText={t('ack.cancel')}
                okButtonProps={confirmOkProps(false)}
                onConfirm={async () => {
                  await acknowledge.mutateAsync({ ids: selected });
                  setSelected([]);
                }}
              >
                <Button type="primary" data-testid="warnings-ack-batch" loading={acknowledge.isPending}>
                  {t('ack.batch', { count: selected.length })}
                </Button>
              </Popconfirm>
            </NotForMonitor>
          ) : null}
          <ExportButton
            ns="warnings"
            testId="warnings-export"
            calls={{ start: 'warningsExportStart', status: 'warningsExportStatus', download: 'warningsExportDownload' }}
            request={list.request}
          />
          <NotForMonitor>
            <Button
              icon={<SettingOutlined />}
              onClick={() => setSettingsOpen(true)}
              data-testid="warnings-settings-open"
            >
              {t('settings.button')}
            </Button>
          </NotForMonitor>
        </Space>
      }
      above={
        <Space wrap size={[8, 8]} className="mq-warnings-counts" data-testid="warnings-counts">
          {counts.map((c) => (
            <Tag.CheckableTag
              key={c.kind}
              checked={current === c.kind}
              onChange={(on) => list.refine({ kind: on ? c.kind : undefined } as never)}
              data-testid={`warnings-count-${c.kind}`}
            >
              {t(`kind.${c.kind}`)} <b>{c.open}</b>
              {c.acknowledged > 0 ? <Typography.Text type="secondary"> +{c.acknowledged}</Typography.Text> : null}
            </Tag.CheckableTag>
          ))}
        </Space>
      }
      rowTestId={(row) => `warnings-row-${row.id}`}
      rowSelection={{
        selectedRowKeys: selected,
        onChange: (keys) => setSelected(keys.map(String)),
        getCheckboxProps: (row) =>
          ({
            disabled: row.state !== 'open',
            'aria-label': t('ack.select', { name: row.objectName }),
          }) as object,
      }}
      empty={list.filtered ? t('list.emptyFiltered') : t('list.empty')}
      failed={{ description: t('list.failed'), retryLabel: t('list.retry') }}
      showTotal={(total) => t('list.total', { count: total })}
    >
      <SettingsDialog open={settingsOpen} onClose={() => setSettingsOpen(false)} />
    </ListPage>
  );
}
