import type { IotCard } from '@marquee/protocol';
import { type CardRow, MB, type UsageRow } from './repository.js';

const round2 = (n: number) => Math.round(n * 100) / 100;

/** A card as the console shows it: this month's usage and what is left of the package, in MB with 2 decimals. */
export function toCard(row: CardRow): IotCard {
  const usedMb = round2(row.usedBytes / MB);
  return {
    id: row.id,
    iccid: row.iccid,
    operator: row.operator,
    state: row.state,
    packageName: row.packageName,
    packageMb: row.packageMb,
    usedMb,
    leftMb: row.packageMb === null ? null : Math.max(0, round2(row.packageMb - row.usedBytes / MB)),
    deviceId: row.deviceId,
    deviceName: row.deviceName,
    activatedAt: row.activatedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    autoRenew: row.autoRenew,
    remark: row.remark,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A row of the consumption report ('' card: none). */
export function toUsageRow(row: UsageRow) {
  return {
    day: row.day,
    cardId: row.cardId === '' ? null : row.cardId,
    iccid: row.iccid,
    deviceId: row.deviceId,
    deviceName: row.deviceName,
    bytes: row.bytes,
  };
}
