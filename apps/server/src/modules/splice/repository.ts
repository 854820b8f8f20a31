import type { ScopedColumns } from '../../auth/scope.js';
import { spliceWalls } from '../../db/schema/index.js';

/** The scoped columns of split screens (auth/scope.ts): department and owner, like devices. */
export const spliceScope: ScopedColumns = {
  entId: spliceWalls.entId,
  deptId: spliceWalls.deptId,
  ownerId: spliceWalls.ownerId,
};
