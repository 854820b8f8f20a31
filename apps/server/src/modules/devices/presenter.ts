import { type DeviceRow, licenceOf } from '@marquee/protocol';
import { effectiveStatus, type ListedDevice } from './repository.js';

// The device list's rows as the console shows them (DeviceRow): the repository's rows
// (listRows: the device, its names and tags, whether the caller may manage it) shaped for the
// answer, with the status shown at `now` (effectiveStatus).

/** The row of a device as lists show it (`device` joined with its department's name). */
export function presentRow(
  d: ListedDevice,
  deptName: string | null,
  canManage: boolean,
  now: number,
  group: { name: string | null; tags: { id: string; name: string }[]; storeName?: string | null },
  licensed = false,
): DeviceRow {
  return {
    id: d.id,
    number: d.number,
    name: d.name,
    status: effectiveStatus(d, now),
    deptId: d.deptId,
    deptName: deptName ?? '',
    playerVersion: d.playerVersion,
    ip: d.ip,
    mac: d.mac,
    storageUsed: d.storageUsed,
    storageFree: d.storageFree,
    screenWidth: d.screenWidth,
    screenHeight: d.screenHeight,
    volume: d.volume,
    brightness: d.brightness,
    lastSeenAt: d.lastSeenAt?.toISOString() ?? null,
    activatedAt: d.activatedAt?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
    type: d.type,
    scene: d.scene,
    screenSize: d.screenSize,
    screenCount: d.screenCount,
    installedAt: d.installedAt?.toISOString() ?? null,
    timeZone: d.timeZone,
    expireAt: d.expireAt?.toISOString() ?? null,
    licence: licenceOf(d.expireAt?.getTime() ?? null, licensed, now),
    remark: d.remark,
    customFields: d.customFields ?? {},
    groupId: d.groupId,
    groupName: group.name ?? '',
    tags: group.tags,
    address: d.address,
    poi: d.poi,
    latitude: d.latitude,
    longitude: d.longitude,
    coordApprox: d.coordApproximate,
    storeId: d.storeId,
    storeName: group.storeName ?? '',
    canManage,
    demo: d.demo,
  };
}

/** A row of listRows, as the repository reads it. */
export interface ListedRow {
  device: ListedDevice;
  deptName: string | null;
  groupName: string | null;
  storeName: string | null;
  tags: { id: string; name: string }[];
  canManage: boolean;
  /** Points were bought for it (repository's licensedColumn). */
  licensed: boolean;
}

/** The rows of a list page at `now` (epoch ms), in their order. */
export function presentRows(rows: readonly ListedRow[], now: number): DeviceRow[] {
  return rows.map((r) =>
    presentRow(
      r.device,
      r.deptName,
      r.canManage,
      now,
      { name: r.groupName, tags: r.tags, storeName: r.storeName },
      r.licensed,
    ),
  );
}
