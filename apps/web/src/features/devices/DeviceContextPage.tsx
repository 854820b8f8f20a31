import { ArrowLeftOutlined, ReloadOutlined } from '@ant-design/icons';
import {
  type CommandRow,
  type DeviceDetail,
  type DeviceStatusValue,
  type DeviceStrategy,
  formatTime,
  Perm,
  type StatusHistoryRow,
} from '@marquee/protocol';
import { Alert, Button, Card, Descriptions, Empty, Image, Skeleton, Space, Table, Tag, Timeline } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { useCallQuery } from '../../api/queries';
import { DeviceSelect } from '../../components/pickers/DevicePicker';
import { useDictionary } from '../../components/pickers/useDictionary';
import { useCan } from '../../session/useCan';
import { customValueText, useCustomFields } from './customFields';
import {
  COMMAND_STATE_COLOR,
  DEVICE_STATUS_COLOR,
  DeviceStatusTag,
  deviceSceneText,
  deviceTypeText,
  LicenceCell,
  screenSizeText,
  storageText,
} from './deviceColumns';
import './devices.css';

/** How often the detail, its history and its commands refresh (a command's state changes live). */
const REFRESH_MS = 5000;

const time = (v: string | null) => (v ? formatTime(v) : '-');

function StatusHistory({ deviceId, t }: { deviceId: string; t: TFunction }) {
  const history = useCallQuery('deviceStatusHistory', { deviceId, page: 1, size: 50 }, { refetchInterval: REFRESH_MS });
  if (history.isLoading) return <Skeleton active />;
  const rows: StatusHistoryRow[] = history.data?.data ?? [];
  if (rows.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('context.historyEmpty')} />;
  const color = (status: DeviceStatusValue) =>
    ({ success: 'green', default: 'gray', error: 'red', processing: 'blue', warning: 'orange' })[
      DEVICE_STATUS_COLOR[status]
    ];
  return (
    <div className="mq-device-history" data-testid="device-context-history">
      <Timeline
        items={rows.map((h) => ({
          key: h.id,
          color: color(h.status),
          title: formatTime(h.at),
          content: (
            <Space size={4} wrap>
              <DeviceStatusTag status={h.status} t={t} />
              <span>{t(`reason.${h.reason}`, { defaultValue: h.reason })}</span>
            </Space>
          ),
        }))}
      />
    </div>
  );
}

function RecentCommands({ deviceId, t }: { deviceId: string; t: TFunction }) {
  const commands = useCallQuery('deviceCommands', { deviceId, page: 1, size: 20 }, { refetchInterval: REFRESH_MS });
  return (
    <Table<CommandRow>
      size="small"
      rowKey="id"
      loading={commands.isLoading}
      pagination={false}
      dataSource={commands.data?.data ?? []}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('context.commandsEmpty')} /> }}
      data-testid="device-context-commands"
      columns={[
        { key: 'kind', dataIndex: 'kind', title: t('command.kind'), render: (k: string) => t(`command.kind.${k}`) },
        {
          key: 'state',
          dataIndex: 'state',
          title: t('command.state'),
          render: (s: CommandRow['state']) => <Tag color={COMMAND_STATE_COLOR[s]}>{t(`command.state.${s}`)}</Tag>,
        },
        { key: 'createdAt', dataIndex: 'createdAt', title: t('command.createdAt'), render: time },
        { key: 'ackedAt', dataIndex: 'ackedAt', title: t('command.ackedAt'), render: time },
        {
          key: 'error',
          title: t('command.error'),
          render: (_v, row) =>
            row.errorCode ? `${row.errorCode}${row.errorMessage ? `: ${row.errorMessage}` : ''}` : '-',
        },
      ]}
    />
  );
}

/** The strategies last sent to the device, one per type, with the state of the command that carried each. */
function DeviceStrategies({ deviceId, t }: { deviceId: string; t: TFunction }) {
  const strategies = useCallQuery('strategyOfDevice', { deviceId }, { refetchInterval: REFRESH_MS });
  return (
    <Table<DeviceStrategy>
      size="small"
      rowKey="type"
      loading={strategies.isLoading}
      pagination={false}
      dataSource={strategies.data?.data ?? []}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('context.strategiesEmpty')} /> }}
      data-testid="device-context-strategies"
      columns={[
        { key: 'type', dataIndex: 'type', title: t('strategy.type'), render: (v: string) => t(`strategies:type.${v}`) },
        { key: 'name', dataIndex: 'name', title: t('strategy.name') },
        {
          key: 'version',
          title: t('strategy.version'),
          render: (_v, row) =>
            row.version === row.currentVersion ? (
              `v${row.version}`
            ) : (
              <span>
                v{row.version} <Tag color="warning">{t('strategy.outdated', { version: row.currentVersion })}</Tag>
              </span>
            ),
        },
        {
          key: 'state',
          dataIndex: 'state',
          title: t('command.state'),
          render: (s: DeviceStrategy['state']) =>
            s ? <Tag color={COMMAND_STATE_COLOR[s]}>{t(`command.state.${s}`)}</Tag> : '-',
        },
        { key: 'appliedAt', dataIndex: 'appliedAt', title: t('strategy.appliedAt'), render: time },
      ]}
    />
  );
}

/** The device's newest screenshot (a signed, short-lived image URL) and a link to the history page. */
function LatestScreenshot({ deviceId, t }: { deviceId: string; t: TFunction }) {
  const shots = useCallQuery('screenshotHistory', { deviceId, page: 1, size: 10 }, { refetchInterval: 30_000 });
  const shot = shots.data?.data[0];
  if (shots.isLoading) return <Skeleton.Image active />;
  return (
    <div data-testid="device-context-screenshot">
      {shot ? (
        <Space direction="vertical" size={4} style={{ width: '100%' }}>
          <Image src={shot.url} alt={t('context.screenshot')} style={{ maxWidth: '100%', maxHeight: 220 }} />
          <span className="mq-muted">{t('context.screenshotTakenAt', { time: formatTime(shot.takenAt) })}</span>
        </Space>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('context.screenshotEmpty')} />
      )}
    </div>
  );
}

/**
 * Why an expired device shows no new content (issue 27: the manifest answers none, the player
 * shows its notice), and for who may buy, the way to the market.
 */
function ExpiredLicence({ device, t }: { device: DeviceDetail; t: TFunction }) {
  const can = useCan();
  if (device.licence !== 'expired') return null;
  return (
    <Alert
      type="error"
      showIcon
      data-testid="device-context-expired"
      title={t('licence.expiredTitle')}
      description={t('licence.expiredHint', { time: time(device.expireAt) })}
      action={
        can(Perm.applicationMarket) ? (
          <Link to="/shop/detail" data-testid="device-context-renew">
            {t('licence.renew')}
          </Link>
        ) : undefined
      }
    />
  );
}

function DeviceFacts({ device, t }: { device: DeviceDetail; t: TFunction }) {
  const types = useDictionary('deviceType');
  const scenes = useDictionary('scene');
  const reported = device.lastSeenAt !== null;
  const zones = useCallQuery('timeZoneList', {}, { enabled: device.timeZone === null, staleTime: 3600_000 });
  const enterpriseZone = zones.data?.enterprise;
  // The definitions are read with the device permission (the detail is also the context permission's).
  const can = useCan();
  const customFields = useCustomFields(can(Perm.device));
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      <ExpiredLicence device={device} t={t} />
      <Card size="small" title={t('context.registry')}>
        <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} data-testid="device-context-registry">
          <Descriptions.Item label={t('field.name')}>{device.name}</Descriptions.Item>
          <Descriptions.Item label={t('field.number')}>{device.number ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('field.status')}>
            <DeviceStatusTag status={device.status} t={t} />
          </Descriptions.Item>
          <Descriptions.Item label={t('field.dept')}>{device.deptName || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('field.type')}>{deviceTypeText(device.type, t, types.label)}</Descriptions.Item>
          <Descriptions.Item label={t('field.screenSize')}>{screenSizeText(device.screenSize, t)}</Descriptions.Item>
          <Descriptions.Item label={t('field.screenCount')}>{device.screenCount}</Descriptions.Item>
          <Descriptions.Item label={t('field.layout')}>
            <span className="mq-muted">{t('notAssigned')}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('field.scene')}>
            {deviceSceneText(device.scene, t, scenes.label)}
          </Descriptions.Item>
          <Descriptions.Item label={t('field.installedAt')}>{time(device.installedAt)}</Descriptions.Item>
          <Descriptions.Item label={t('timeZone.label', { ns: 'common' })}>
            {device.timeZone ?? t('timeZone.followEnterprise', { ns: 'common', zone: enterpriseZone ?? '' })}
          </Descriptions.Item>
          <Descriptions.Item label={t('field.licence')}>
            <LicenceCell device={device} now={Date.now()} t={t} />
          </Descriptions.Item>
          <Descriptions.Item label={t('field.owner')}>{device.ownerName || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('field.createdAt')}>{time(device.createdAt)}</Descriptions.Item>
          <Descriptions.Item label={t('field.activatedAt')}>{time(device.activatedAt)}</Descriptions.Item>
          <Descriptions.Item label={t('field.remark')}>{device.remark || '-'}</Descriptions.Item>
          {customFields.map((f) => (
            <Descriptions.Item key={f.key} label={f.label}>
              <span data-testid={`device-context-cf-${f.key}`}>{customValueText(device.customFields?.[f.key])}</span>
            </Descriptions.Item>
          ))}
        </Descriptions>
      </Card>
      <Card size="small" title={t('context.reported')}>
        {reported ? null : <Alert type="info" showIcon title={t('context.noReport')} style={{ marginBottom: 12 }} />}
        <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} data-testid="device-context-reported">
          <Descriptions.Item label={t('field.lastSeenAt')}>{time(device.lastSeenAt)}</Descriptions.Item>
          <Descriptions.Item label={t('field.statusAt')}>{time(device.statusAt)}</Descriptions.Item>
          <Descriptions.Item label={t('field.heartbeat')}>
            {t('seconds', { count: device.heartbeatSec })}
          </Descriptions.Item>
          <Descriptions.Item label={t('field.playerVersion')}>{device.playerVersion ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('field.firmware')}>{device.firmware ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('field.model')}>{device.model ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('field.ip')}>{device.ip ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('field.mac')}>{device.mac ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('field.storage')}>{storageText(device, t)}</Descriptions.Item>
          <Descriptions.Item label={t('field.resolution')}>
            {device.screenWidth && device.screenHeight ? `${device.screenWidth} × ${device.screenHeight}` : '-'}
          </Descriptions.Item>
          <Descriptions.Item label={t('field.screenOn')}>
            {device.screenOn === null ? '-' : t(device.screenOn ? 'screenOn.on' : 'screenOn.off')}
          </Descriptions.Item>
          <Descriptions.Item label={t('field.volume')}>{device.volume ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('field.brightness')}>{device.brightness ?? '-'}</Descriptions.Item>
        </Descriptions>
      </Card>
    </Space>
  );
}

/**
 * Device details (/device/context): one device chosen by `?id=` (the list's "details" action)
 * or with the picker: its registry fields, the state it last reported, its status history as
 * a timeline and its recent commands with their states (those need the remote-control code).
 * Everything refreshes every few seconds.
 */
export default function DeviceContextPage() {
  const { t } = useTranslation(['devices', 'common', 'strategies']);
  const navigate = useNavigate();
  const can = useCan();
  const [params, setParams] = useSearchParams();
  const id = params.get('id') ?? undefined;
  const detail = useCallQuery(
    'deviceDetail',
    { id: id as string },
    {
      silent: true,
      enabled: Boolean(id),
      refetchInterval: REFRESH_MS,
      retry: false,
    },
  );
  const choose = (next: string | undefined) => {
    if (next) setParams({ id: next }, { replace: false });
  };
  const notFound = detail.error instanceof ApiError;

  return (
    <div className="mq-view mq-device-context" data-testid="device-context-page">
      <Card size="small" style={{ marginBottom: 12 }}>
        <Space wrap>
          {can(Perm.device) ? (
            <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/device')} data-testid="device-context-back">
              {t('context.backToList')}
            </Button>
          ) : null}
          <DeviceSelect
            value={detail.data ? id : undefined}
            onChange={choose}
            known={detail.data ? [detail.data] : undefined}
            limit={20}
            placeholder={t('context.chooseHint')}
            aria-label={t('context.choose')}
            notFound={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />}
            style={{ width: 360 }}
            testId="device-context-picker"
          />
          {id ? (
            <Button icon={<ReloadOutlined />} onClick={() => void detail.refetch()} aria-label={t('refresh')}>
              {t('refresh')}
            </Button>
          ) : null}
        </Space>
      </Card>
      {!id ? (
        <Card size="small">
          <Empty description={t('context.choose')} data-testid="device-context-empty" />
        </Card>
      ) : notFound ? (
        <Alert type="warning" showIcon title={t('context.notFound')} data-testid="device-context-notfound" />
      ) : !detail.data ? (
        <Card size="small">
          <Skeleton active paragraph={{ rows: 8 }} />
        </Card>
      ) : (
        <div style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 2fr) minmax(280px, 1fr)', gap: 12 }}>
          <Space direction="vertical" size={12} style={{ width: '100%' }}>
            <DeviceFacts device={detail.data} t={t} />
            <Card size="small" title={t('context.strategies')}>
              <DeviceStrategies deviceId={detail.data.id} t={t} />
            </Card>
            {can(Perm.deviceRemote) ? (
              <Card size="small" title={t('context.commands')}>
                <RecentCommands deviceId={detail.data.id} t={t} />
              </Card>
            ) : null}
          </Space>
          <Space direction="vertical" size={12} style={{ width: '100%' }}>
            {can(Perm.deviceScreenshot) ? (
              <Card
                size="small"
                title={t('context.screenshot')}
                extra={
                  <Link to={`/device/screenshotHistory?deviceId=${encodeURIComponent(detail.data.id)}`}>
                    {t('context.screenshotHistory')}
                  </Link>
                }
              >
                <LatestScreenshot deviceId={detail.data.id} t={t} />
              </Card>
            ) : null}
            <Card size="small" title={t('context.history')}>
              <StatusHistory deviceId={detail.data.id} t={t} />
            </Card>
          </Space>
        </div>
      )}
    </div>
  );
}
