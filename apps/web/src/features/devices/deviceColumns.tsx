import {
  type CommandStateValue,
  type DeviceRow,
  type DeviceStatusValue,
  type DeviceTypeValue,
  daysUntil,
  EXPIRING_DEVICE_DAYS,
  formatSize,
  formatTime,
  type LicenceState,
} from '@marquee/protocol';
import { Tag, Tooltip, theme } from 'antd';
import type { TFunction } from 'i18next';
import type { TableColumn } from '../../components/tableConfig';

/** The colour of each device status tag (spec section 4). */
export const DEVICE_STATUS_COLOR: Record<DeviceStatusValue, string> = {
  online: 'success',
  offline: 'default',
  invalid: 'error',
  activating: 'processing',
  trial: 'warning',
};

/** A device's status as a coloured tag in the current language. */
export function DeviceStatusTag({ status, t }: { status: DeviceStatusValue; t: TFunction }) {
  return (
    <Tag color={DEVICE_STATUS_COLOR[status]} data-testid={`device-status-${status}`}>
      {t(`devices:status.${status}`)}
    </Tag>
  );
}

/** The colour of each licence tag (issue 27). */
export const LICENCE_COLOR: Record<LicenceState, string> = {
  trial: 'processing',
  licensed: 'success',
  expired: 'error',
};

/**
 * A device's licence (issue 27): its tag, and under it the expiry and, when it comes within
 * EXPIRING_DEVICE_DAYS, how many days are left, in the warning colour. `now`: the time of the
 * page (ms).
 */
export function LicenceCell({
  device,
  now,
  t,
}: {
  device: Pick<DeviceRow, 'id' | 'licence' | 'expireAt'>;
  now: number;
  t: TFunction;
}) {
  const { token } = theme.useToken();
  const expireAt = device.expireAt ? new Date(device.expireAt).getTime() : null;
  const days = expireAt === null ? null : daysUntil(expireAt, now);
  const expiring = device.licence !== 'expired' && days !== null && days < EXPIRING_DEVICE_DAYS;
  return (
    <span
      style={{ display: 'inline-flex', flexDirection: 'column', alignItems: 'flex-start', gap: 2 }}
      data-testid={`device-licence-${device.id}`}
    >
      <Tag color={LICENCE_COLOR[device.licence]} data-testid={`device-licence-${device.licence}`}>
        {t(`devices:licence.${device.licence}`)}
      </Tag>
      {/* The theme's secondary text colour: the console's faded 'mq-muted' is below 4.5:1 in a table row. */}
      <span style={{ color: token.colorTextSecondary, fontSize: 12 }}>
        {device.expireAt ? formatTime(device.expireAt) : t('devices:licence.noLimit')}
      </span>
      {expiring ? (
        <span style={{ color: token.colorWarningText }} data-testid="device-licence-expiring">
          {days === 0 ? t('devices:licence.expiresToday') : t('devices:licence.expiresIn', { count: days ?? 0 })}
        </span>
      ) : null}
    </span>
  );
}

export const COMMAND_STATE_COLOR: Record<CommandStateValue, string> = {
  pending: 'default',
  sent: 'processing',
  acknowledged: 'success',
  failed: 'error',
  expired: 'warning',
};

/**
 * A device type's name ('-' for none): its dictionary label (issue 31, useDictionary's `label`)
 * when given and known, else the console's own name of a built-in type, else the code.
 */
export const deviceTypeText = (type: DeviceTypeValue | null, t: TFunction, label?: (code: string) => string) =>
  type ? label?.(type) || t(`devices:type.${type}`, { defaultValue: type }) : '-';

/** A device scene's name ('-' for none): its dictionary label (issue 31), else the console's own name of a seeded scene, else the code. */
export const deviceSceneText = (scene: string | null, t: TFunction, label?: (code: string) => string) =>
  scene ? label?.(scene) || t(`devices:scene.${scene}`, { defaultValue: scene }) : '-';

/** Screen size in inches ('-' for none). */
export const screenSizeText = (size: number | null, t: TFunction) =>
  size === null ? '-' : t('devices:inches', { size });

/** Used storage of the total (used + free), e.g. "1.16 GB of 7.45 GB". */
export function storageText(row: Pick<DeviceRow, 'storageUsed' | 'storageFree'>, t: TFunction): string {
  if (row.storageUsed === null) return '-';
  if (row.storageFree === null) return formatSize(row.storageUsed);
  return t('devices:storageOf', {
    used: formatSize(row.storageUsed),
    total: formatSize(row.storageUsed + row.storageFree),
  });
}

const time = (v: string | null) => (v ? formatTime(v) : '-');

/**
 * THE device list's columns (spec section 3 Device), in order: the one array other device
 * features extend (group, tags, store, address, POI, latitude/longitude join here as their
 * fields join `deviceRowSchema`). `show: false` columns are offered in the column settings.
 * Sortable props are the protocol's DEVICE_SORT_KEYS. Layout reads 'not assigned' until the
 * layouts issue assigns it. `typeLabel` and `sceneLabel` name codes by their dictionaries (useDictionary).
 */
export function deviceListColumns(
  t: TFunction,
  now: number = Date.now(),
  typeLabel?: (code: string) => string,
  sceneLabel?: (code: string) => string,
): TableColumn<DeviceRow>[] {
  return [
    { prop: 'number', label: t('devices:field.number'), width: 150, ellipsis: true, sortable: true },
    {
      prop: 'name',
      label: t('devices:field.name'),
      width: 170,
      ellipsis: true,
      sortable: true,
      // A player of the demo fleet (README: DEMO_PLAYERS) says so before its name.
      slot: (v: string, row: DeviceRow) =>
        row.demo ? (
          <span>
            <Tooltip title={t('devices:demoHint')}>
              <Tag color="purple" style={{ marginInlineEnd: 4 }} data-testid="device-demo-tag">
                {t('devices:demo')}
              </Tag>
            </Tooltip>
            {v}
          </span>
        ) : (
          v
        ),
    },
    {
      prop: 'status',
      label: t('devices:field.status'),
      width: 150,
      sortable: true,
      slot: (v: DeviceStatusValue) => <DeviceStatusTag status={v} t={t} />,
    },
    // Beside the status: whether the screen is in service is what an operator reads first.
    {
      prop: 'licence',
      label: t('devices:field.licence'),
      width: 190,
      slot: (_v: LicenceState, row: DeviceRow) => <LicenceCell device={row} now={now} t={t} />,
    },
    { prop: 'deptName', label: t('devices:field.dept'), width: 130, ellipsis: true },
    {
      prop: 'type',
      label: t('devices:field.type'),
      width: 120,
      slot: (v: DeviceTypeValue | null) => deviceTypeText(v, t, typeLabel),
    },
    {
      prop: 'screenSize',
      label: t('devices:field.screenSize'),
      width: 110,
      sortable: true,
      align: 'right',
      show: false,
      slot: (v: number | null) => screenSizeText(v, t),
    },
    {
      prop: 'screenCount',
      label: t('devices:field.screenCount'),
      width: 100,
      showThousands: true,
      show: false,
    },
    {
      prop: 'resolution',
      label: t('devices:field.resolution'),
      width: 120,
      show: false,
      slot: (_v: undefined, row: DeviceRow) =>
        row.screenWidth && row.screenHeight ? `${row.screenWidth} × ${row.screenHeight}` : '-',
    },
    {
      prop: 'layout',
      label: t('devices:field.layout'),
      width: 110,
      show: false,
      slot: () => <span className="mq-muted">{t('devices:notAssigned')}</span>,
    },
    {
      prop: 'scene',
      label: t('devices:field.scene'),
      width: 120,
      show: false,
      slot: (v: string | null) => deviceSceneText(v, t, sceneLabel),
    },
    { prop: 'groupName', label: t('devices:field.group'), width: 130, ellipsis: true, slot: (v: string) => v || '-' },
    {
      prop: 'tags',
      label: t('devices:field.tags'),
      width: 180,
      slot: (v: DeviceRow['tags']) =>
        v.length === 0
          ? '-'
          : v.map((tag) => (
              <Tag key={tag.id} style={{ marginBlock: 2 }}>
                {tag.name}
              </Tag>
            )),
    },
    { prop: 'storeName', label: t('devices:field.store'), width: 140, ellipsis: true, slot: (v: string) => v || '-' },
    {
      prop: 'address',
      label: t('devices:field.address'),
      width: 200,
      ellipsis: true,
      show: false,
      slot: (v: string | null) => v || '-',
    },
    {
      prop: 'poi',
      label: t('devices:field.poi'),
      width: 150,
      ellipsis: true,
      show: false,
      slot: (v: string | null) => v || '-',
    },
    {
      prop: 'latitude',
      label: t('devices:field.coordinates'),
      width: 190,
      show: false,
      slot: (_v: number | null, row: DeviceRow) =>
        row.latitude === null || row.longitude === null ? (
          '-'
        ) : (
          <span>
            {row.latitude.toFixed(5)}, {row.longitude.toFixed(5)}
            {row.coordApprox ? (
              <Tooltip title={t('devices:coordApproxHint')}>
                <Tag style={{ marginInlineStart: 4 }}>{t('devices:coordApprox')}</Tag>
              </Tooltip>
            ) : null}
          </span>
        ),
    },
    { prop: 'playerVersion', label: t('devices:field.playerVersion'), width: 120, sortable: true, ellipsis: true },
    { prop: 'ip', label: t('devices:field.ip'), width: 130 },
    { prop: 'mac', label: t('devices:field.mac'), width: 160, show: false },
    {
      prop: 'storageUsed',
      label: t('devices:field.storage'),
      width: 170,
      sortable: true,
      slot: (_v: number | null, row: DeviceRow) => {
        const text = storageText(row, t);
        return row.storageFree === null ? (
          text
        ) : (
          <Tooltip title={`${t('devices:field.storageFree')}: ${formatSize(row.storageFree)}`}>{text}</Tooltip>
        );
      },
    },
    {
      prop: 'lastSeenAt',
      label: t('devices:field.lastSeenAt'),
      width: 170,
      sortable: true,
      slot: (v: string | null) => time(v),
    },
    {
      prop: 'installedAt',
      label: t('devices:field.installedAt'),
      width: 170,
      sortable: true,
      show: false,
      slot: (v: string | null) => time(v),
    },
    {
      prop: 'expireAt',
      label: t('devices:field.expireAt'),
      width: 170,
      sortable: true,
      show: false,
      slot: (v: string | null) => time(v),
    },
    {
      prop: 'createdAt',
      label: t('devices:field.createdAt'),
      width: 170,
      sortable: true,
      show: false,
      slot: (v: string) => time(v),
    },
    { prop: 'remark', label: t('devices:field.remark'), width: 180, ellipsis: true, show: false },
  ];
}
