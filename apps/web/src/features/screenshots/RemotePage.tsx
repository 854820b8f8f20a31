import {
  CameraOutlined,
  ClearOutlined,
  EyeInvisibleOutlined,
  EyeOutlined,
  FontSizeOutlined,
  PoweroffOutlined,
  SoundOutlined,
  SunOutlined,
} from '@ant-design/icons';
import {
  type CommandBody,
  type CommandStateValue,
  DEVICE_STATUSES,
  type DeviceRow,
  type DeviceStatusValue,
  formatTime,
  Perm,
} from '@marquee/protocol';
import { Button, Card, Empty, Popconfirm, Slider, Space, Table, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCallMutation } from '../../api/queries';
import { confirmOkProps } from '../../components/ConfirmAction';
import { ListPage, useListPage } from '../../components/listPage';
import { useCan } from '../../session/useCan';
import { UpgradesTab } from '../upgrades/UpgradesTab';
import { WatermarkDialog, type WatermarkTarget } from '../watermark/WatermarkDialog';
import { type SentCommand, useCommandResults } from './useCommandResults';

export const STATUS_COLORS: Record<DeviceStatusValue, string> = {
  online: 'success',
  offline: 'default',
  invalid: 'error',
  activating: 'processing',
  trial: 'warning',
};
const STATE_COLORS: Record<CommandStateValue, string> = {
  pending: 'default',
  sent: 'processing',
  acknowledged: 'success',
  failed: 'error',
  expired: 'warning',
};

/**
 * /device/remote: the remote control, and the firmware and APK upgrades (issue 31) in a second
 * tab (`?tab=upgrades`).
 */
export default function RemotePage() {
  const { t } = useTranslation('upgrades');
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'upgrades' ? 'upgrades' : 'control';
  return (
    <Tabs
      activeKey={tab}
      onChange={(key) => setParams(key === 'upgrades' ? { tab: key } : {}, { replace: true })}
      items={[
        {
          key: 'control',
          label: <span data-testid="remote-tab-control">{t('tab.control')}</span>,
          children: <RemoteControl />,
        },
        {
          key: 'upgrades',
          label: <span data-testid="remote-tab-upgrades">{t('tab.upgrades')}</span>,
          children: <UpgradesTab />,
        },
      ]}
    />
  );
}

/**
 * Remote control (/device/remote): pick devices (searchable, filterable, multi-select across
 * pages), then set volume or brightness, reboot, turn the screen on or off, clear the cache or
 * take a screenshot, or set their watermark (kept on the server, in their manifests);
 * destructive actions ask first. Each command's state per device is
 * followed live below (every second while any is open).
 */
function RemoteControl() {
  const { t } = useTranslation(['screenshots', 'common']);
  const can = useCan();
  const [selected, setSelected] = useState<DeviceRow[]>([]);
  const [volume, setVolume] = useState(50);
  const [brightness, setBrightness] = useState(80);
  const [watermarkFor, setWatermarkFor] = useState<WatermarkTarget | null>(null);
  const results = useCommandResults();

  const send = useCallMutation('deviceSendCommand', {
    success: (answer) => t('sent', { count: answer.commands.length }),
    onSuccess: (answer, body) => {
      const names = new Map(selected.map((d) => [d.id, d.name]));
      const now = Date.now();
      results.add(
        answer.commands.map((c) => ({
          id: c.id,
          deviceId: c.deviceId,
          deviceName: names.get(c.deviceId) ?? c.deviceId,
          kind: body.kind,
          params: (body.params ?? {}) as Record<string, unknown>,
          sentAt: now,
        })),
      );
    },
  });

  const list = useListPage({
    id: 'remoteDevices',
    endpoint: 'deviceList',
    filters: [
      {
        key: 'keyword',
        label: t('filter.keyword'),
        placeholder: t('filter.keywordHint'),
        testId: 'remote-filter-keyword',
      },
      {
        key: 'status',
        kind: 'select',
        label: t('col.status'),
        placeholder: t('filter.all'),
        width: 130,
        options: DEVICE_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) })),
        testId: 'remote-filter-status',
      },
    ],
    columns: [
      { prop: 'name', label: t('col.name'), width: 180, ellipsis: true },
      { prop: 'number', label: t('col.number'), width: 150, ellipsis: true, slot: (v: string | null) => v ?? '-' },
      {
        prop: 'status',
        label: t('col.status'),
        width: 110,
        slot: (v: DeviceStatusValue) => <Tag color={STATUS_COLORS[v]}>{t(`status.${v}`)}</Tag>,
      },
      { prop: 'deptName', label: t('col.dept'), width: 140, ellipsis: true },
      { prop: 'volume', label: t('col.volume'), width: 90, align: 'right', slot: (v: number | null) => v ?? '-' },
      {
        prop: 'brightness',
        label: t('col.brightness'),
        width: 90,
        align: 'right',
        slot: (v: number | null) => v ?? '-',
      },
      {
        prop: 'lastSeenAt',
        label: t('col.lastSeen'),
        width: 170,
        slot: (v: string | null) => (v ? formatTime(v) : '-'),
      },
    ],
  });

  const none = selected.length === 0;
  const busy = send.isPending;
  const mayAct = can(Perm.deviceRemote);
  const run = (body: CommandBody) =>
    send.mutateAsync({ deviceIds: selected.map((d) => d.id), ...body } as never).catch(() => undefined);
  const confirmed = (key: string, body: CommandBody, icon: React.ReactNode, testId: string) => (
    <Popconfirm
      title={t(`confirm.${key}`, { count: selected.length })}
      okText={t(`action.${key}`)}
      cancelText={t('common:action.cancel')}
      okButtonProps={confirmOkProps(true)}
      onConfirm={() => run(body)}
      disabled={none || busy}
    >
      <Button danger icon={icon} disabled={none || busy} data-testid={testId}>
        {t(`action.${key}`)}
      </Button>
    </Popconfirm>
  );

  const describe = (c: SentCommand) => {
    if (c.kind === 'volume' || c.kind === 'brightness') return t(`result.${c.kind}`, { level: c.params.level });
    if (c.kind === 'screen') return t(c.params.on ? 'action.screenOn' : 'action.screenOff');
    return t(`action.${c.kind}`);
  };

  return (
    <ListPage
      list={list}
      testPrefix="remote"
      className="mq-remote"
      title={t('devices')}
      rowSelection={{
        selectedRowKeys: selected.map((d) => d.id),
        preserveSelectedRowKeys: true,
        onChange: (_keys, rows) =>
          setSelected((previous) => {
            const byId = new Map(previous.map((d) => [d.id, d]));
            for (const row of rows) if (row) byId.set(row.id, row);
            const keep = new Set(_keys as string[]);
            return [...byId.values()].filter((d) => keep.has(d.id));
          }),
      }}
      rowTestId={(row) => `remote-row-${row.name}`}
      empty={t('empty')}
      showTotal={(total) => t('total', { count: total })}
      beside={
        <Card
          size="small"
          title={t('actions')}
          extra={
            <Typography.Text type={none ? 'secondary' : undefined} data-testid="remote-selected">
              {none ? t('noneSelected') : t('selected', { count: selected.length })}
            </Typography.Text>
          }
        >
          {mayAct ? (
            <Space direction="vertical" style={{ width: '100%' }} size="middle">
              {(
                [
                  ['volume', <SoundOutlined key="icon" />, volume, setVolume],
                  ['brightness', <SunOutlined key="icon" />, brightness, setBrightness],
                ] as const
              ).map(([kind, icon, level, setLevel]) => (
                <div key={kind}>
                  <Typography.Text id={`remote-${kind}-label`}>
                    {icon} {t(`action.${kind}`)}: {level}
                  </Typography.Text>
                  <Space.Compact style={{ width: '100%', alignItems: 'center' }}>
                    <Slider
                      style={{ flex: 1, marginInlineEnd: 12 }}
                      min={0}
                      max={100}
                      value={level}
                      onChange={setLevel}
                      ariaLabelForHandle={t(`action.${kind}`)}
                      data-testid={`remote-${kind}-slider`}
                    />
                    <Button
                      type="primary"
                      disabled={none || busy}
                      onClick={() => run({ kind, params: { level } })}
                      data-testid={`remote-${kind}-apply`}
                    >
                      {t('apply')}
                    </Button>
                  </Space.Compact>
                </div>
              ))}
              <Space wrap>
                <Button
                  icon={<EyeOutlined />}
                  disabled={none || busy}
                  onClick={() => run({ kind: 'screen', params: { on: true } })}
                  data-testid="remote-screen-on"
                >
                  {t('action.screenOn')}
                </Button>
                {confirmed(
                  'screenOff',
                  { kind: 'screen', params: { on: false } },
                  <EyeInvisibleOutlined />,
                  'remote-screen-off',
                )}
                <Button
                  icon={<CameraOutlined />}
                  disabled={none || busy}
                  onClick={() => run({ kind: 'screenshot', params: {} })}
                  data-testid="remote-screenshot"
                >
                  {t('action.screenshot')}
                </Button>
              </Space>
              <Button
                icon={<FontSizeOutlined />}
                disabled={none || busy}
                onClick={() =>
                  setWatermarkFor({
                    kind: 'devices',
                    ids: selected.map((d) => d.id),
                    label: selected.length === 1 ? selected[0].name : t('selected', { count: selected.length }),
                  })
                }
                data-testid="remote-watermark"
              >
                {t('action.watermark')}
              </Button>
              <Space wrap>
                {confirmed('reboot', { kind: 'reboot', params: {} }, <PoweroffOutlined />, 'remote-reboot')}
                {confirmed('clearCache', { kind: 'clearCache', params: {} }, <ClearOutlined />, 'remote-clear-cache')}
              </Space>
            </Space>
          ) : (
            <Empty description={t('noPermission')} />
          )}
        </Card>
      }
    >
      <Card
        size="small"
        title={t('results')}
        style={{ marginTop: 12 }}
        extra={
          <Button
            size="small"
            onClick={results.clear}
            disabled={results.sent.length === results.open}
            data-testid="remote-clear-results"
          >
            {t('clearResults')}
          </Button>
        }
      >
        <Table<SentCommand>
          size="small"
          rowKey="id"
          dataSource={results.sent}
          pagination={results.sent.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
          locale={{ emptyText: <Empty description={t('noResults')} /> }}
          onRow={(row) => ({ 'data-testid': `remote-result-${row.deviceName}` }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            { key: 'device', dataIndex: 'deviceName', title: t('col.name'), width: 180, ellipsis: true },
            { key: 'action', title: t('col.action'), width: 200, render: (_v, row) => describe(row) },
            {
              key: 'state',
              dataIndex: 'state',
              title: t('col.state'),
              width: 130,
              render: (state: CommandStateValue) => (
                <Tag color={STATE_COLORS[state]} data-testid="remote-result-state">
                  {t(`state.${state}`)}
                </Tag>
              ),
            },
            {
              key: 'error',
              title: t('col.error'),
              render: (_v, row) =>
                row.errorCode
                  ? `${t(`ackError.${row.errorCode}`, { defaultValue: row.errorCode })}${row.errorMessage ? `: ${row.errorMessage}` : ''}`
                  : '-',
            },
            {
              key: 'sentAt',
              dataIndex: 'sentAt',
              title: t('col.sentAt'),
              width: 170,
              render: (v: number) => formatTime(v),
            },
          ]}
        />
      </Card>
      <WatermarkDialog target={watermarkFor} onClose={() => setWatermarkFor(null)} />
    </ListPage>
  );
}
