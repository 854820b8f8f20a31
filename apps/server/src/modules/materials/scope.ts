import { RefType } from '@marquee/protocol';
import type { ScopedColumns } from '../../auth/scope.js';
import { materialFolders, materials } from '../../db/schema/index.js';

/** Folders: scoped by department and owner, shared as ref-type '4'. */
export const folderScope: ScopedColumns = {
  entId: materialFolders.entId,
  deptId: materialFolders.deptId,
  ownerId: materialFolders.ownerId,
  share: { refType: RefType.materialFolder, id: materialFolders.id },
};

/** Materials: scoped by department and owner, shared as ref-type '3' and through their folder ('4'). */
export const materialScope: ScopedColumns = {
  entId: materials.entId,
  deptId: materials.deptId,
  ownerId: materials.ownerId,
  share: {
    refType: RefType.material,
    id: materials.id,
    containers: [{ refType: RefType.materialFolder, id: materials.folderId }],
  },
};
