import {
  CameraOutlined,
  ClearOutlined,
  EyeInvisibleOutlined,
  EyeOutlined,
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
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Col,
  Empty,
  Form,
  Input,
  Popconfirm,
  Row,
  Select,
  Slider,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { confirmOkProps } from '../../components/ConfirmAction';
import { FilterBar } from '../../components/FilterBar';
import { ListTable } from '../../components/ListTable';
import { useUrlListState } from '../../components/listState';
import type { TableConfig } from '../../components/tableConfig';
import { useCan } from '../../session/useCan';
import { type SentCommand, useCommandResults } from './useCommandResults';

const FILTER_KEYS = ['keyword', 'status'] as const;

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
 * Remote control (/device/remote): pick devices (searchable, filterable, multi-select across
 * pages), then set volume or brightness, reboot, turn the screen on or off, clear the cache or
 * take a screenshot; destructive actions ask first. Each command's state per device is
 * followed live below (every second while any is open).
 */
export default function RemotePage() {
  const { t } = useTranslation(['screenshots', 'common']);
  const { message } = App.useApp();
  const can = useCan();
  const listState = useUrlListState(FILTER_KEYS);
  const { filters, pageRequest } = listState;
  const [selected, setSelected] = useState<DeviceRow[]>([]);
  const [volume, setVolume] = useState(50);
  const [brightness, setBrightness] = useState(80);
  const results = useCommandResults();

  const list = useQuery({
    queryKey: ['remote.devices', pageRequest, filters],
    queryFn: ({ signal }) =>
      call(
        'deviceList',
        {
          page: pageRequest.page,
          size: pageRequest.size,
          keyword: filters.keyword,
          status: filters.status as DeviceStatusValue | undefined,
        },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });

  const send = useMutation({
    mutationFn: (body: CommandBody) =>
      call('deviceSendCommand', { deviceIds: selected.map((d) => d.id), ...body } as never),
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
      void message.success(t('sent', { count: answer.commands.length }));
    },
  });

  const config: TableConfig<DeviceRow> = {
    id: 'remoteDevices',
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
  };

  const none = selected.length === 0;
  const busy = send.isPending;
  const mayAct = can(Perm.deviceRemote);
  const run = (body: CommandBody) => send.mutateAsync(body).catch(() => undefined);
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
    <div className="mq-view mq-remote" data-testid="remote-page">
      <Card size="small" className="mq-filter-card" style={{ marginBottom: 12 }}>
        <FilterBar
          values={filters}
          onSearch={listState.applyFilters}
          onReset={listState.clearFilters}
          testIds={{ search: 'remote-search', reset: 'remote-reset' }}
        >
          <Form.Item name="keyword" label={t('filter.keyword')}>
            <Input allowClear placeholder={t('filter.keywordHint')} data-testid="remote-filter-keyword" />
          </Form.Item>
          <Form.Item name="status" label={t('col.status')}>
            <Select
              allowClear
              style={{ width: 130 }}
              placeholder={t('filter.all')}
              options={DEVICE_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
              data-testid="remote-filter-status"
            />
          </Form.Item>
        </FilterBar>
      </Card>
      <Row gutter={12}>
        <Col xs={24} xl={15}>
          <Card size="small" className="mq-list-card" title={t('devices')} style={{ marginBottom: 12 }}>
            <ListTable
              config={config}
              query={list}
              state={listState}
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
            />
          </Card>
        </Col>
        <Col xs={24} xl={9}>
          <Card
            size="small"
            title={t('actions')}
            style={{ marginBottom: 12 }}
            extra={
              <Typography.Text type={none ? 'secondary' : undefined} data-testid="remote-selected">
                {none ? t('noneSelected') : t('selected', { count: selected.length })}
              </Typography.Text>
            }
          >
            {mayAct ? (
              <Space direction="vertical" style={{ width: '100%' }} size="middle">
                <div>
                  <Typography.Text id="remote-volume-label">
                    <SoundOutlined /> {t('action.volume')}: {volume}
                  </Typography.Text>
                  <Space.Compact style={{ width: '100%', alignItems: 'center' }}>
                    <Slider
                      style={{ flex: 1, marginInlineEnd: 12 }}
                      min={0}
                      max={100}
                      value={volume}
                      onChange={setVolume}
                      ariaLabelForHandle={t('action.volume')}
                      data-testid="remote-volume-slider"
                    />
                    <Button
                      type="primary"
                      disabled={none || busy}
                      onClick={() => run({ kind: 'volume', params: { level: volume } })}
                      data-testid="remote-volume-apply"
                    >
                      {t('apply')}
                    </Button>
                  </Space.Compact>
                </div>
                <div>
                  <Typography.Text id="remote-brightness-label">
                    <SunOutlined /> {t('action.brightness')}: {brightness}
                  </Typography.Text>
                  <Space.Compact style={{ width: '100%', alignItems: 'center' }}>
                    <Slider
                      style={{ flex: 1, marginInlineEnd: 12 }}
                      min={0}
                      max={100}
                      value={brightness}
                      onChange={setBrightness}
                      ariaLabelForHandle={t('action.brightness')}
                      data-testid="remote-brightness-slider"
                    />
                    <Button
                      type="primary"
                      disabled={none || busy}
                      onClick={() => run({ kind: 'brightness', params: { level: brightness } })}
                      data-testid="remote-brightness-apply"
                    >
                      {t('apply')}
                    </Button>
                  </Space.Compact>
                </div>
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
                <Space wrap>
                  {confirmed('reboot', { kind: 'reboot', params: {} }, <PoweroffOutlined />, 'remote-reboot')}
                  {confirmed('clearCache', { kind: 'clearCache', params: {} }, <ClearOutlined />, 'remote-clear-cache')}
                </Space>
              </Space>
            ) : (
              <Empty description={t('noPermission')} />
            )}
          </Card>
        </Col>
      </Row>
      <Card
        size="small"
        title={t('results')}
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
    </div>
  );
}
