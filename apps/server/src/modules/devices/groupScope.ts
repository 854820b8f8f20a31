import { RefType } from '@marquee/protocol';
import type { ScopedColumns } from '../../auth/scope.js';
import { deviceGroups } from '../../db/schema/index.js';

/**
 * The scoped columns of device groups (auth/scope.ts): department, owner, sharing as ref-type
 * '2'. Kept with devices, beneath the deviceGroups module: naming target devices by group
 * (targets.ts) reads the groups the caller sees.
 */
export const deviceGroupScope: ScopedColumns = {
  entId: deviceGroups.entId,
  deptId: deviceGroups.deptId,
  ownerId: deviceGroups.ownerId,
  share: { refType: RefType.deviceGroup, id: deviceGroups.id },
};
