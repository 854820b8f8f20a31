import { RefType } from '@marquee/protocol';
import type { ScopedColumns } from '../../auth/scope.js';
import { deviceGroups } from '../../db/schema/index.js';

/** The scoped columns of device groups (auth/scope.ts): department, owner, sharing as ref-type '2'. */
export const deviceGroupScope: ScopedColumns = {
  entId: deviceGroups.entId,
  deptId: deviceGroups.deptId,
  ownerId: deviceGroups.ownerId,
  share: { refType: RefType.deviceGroup, id: deviceGroups.id },
};
