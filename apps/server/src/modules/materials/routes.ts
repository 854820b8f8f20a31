import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import { createCategory, deleteCategory, listCategories, updateCategory } from './categories.js';
import { createFolder, deleteFolder, folderTree, moveFolder, renameFolder } from './folders.js';
import {
  addMedia,
  deleteMaterials,
  listMaterials,
  materialDetail,
  moveMaterials,
  renameMaterial,
  setMaterialCategory,
  storageUsage,
} from './service.js';
import { applyUpload, checkUpload, inspectUpload, verifyUpload } from './upload.js';

export const materialHandlers = [
  defineHandler(endpoints.materialFolderTree, { handle: (_input, ctx) => folderTree(ctx) }),
  defineHandler(endpoints.materialFolderCreate, { handle: (input, ctx) => createFolder(input, ctx) }),
  defineHandler(endpoints.materialFolderRename, { handle: (input, ctx) => renameFolder(input, ctx) }),
  defineHandler(endpoints.materialFolderMove, { handle: (input, ctx) => moveFolder(input, ctx) }),
  defineHandler(endpoints.materialFolderDelete, { handle: (input, ctx) => deleteFolder(input, ctx) }),
  defineHandler(endpoints.materialCategoryList, { handle: (_input, ctx) => listCategories(ctx) }),
  defineHandler(endpoints.materialCategoryCreate, { handle: (input, ctx) => createCategory(input, ctx) }),
  defineHandler(endpoints.materialCategoryUpdate, { handle: (input, ctx) => updateCategory(input, ctx) }),
  defineHandler(endpoints.materialCategoryDelete, { handle: (input, ctx) => deleteCategory(input, ctx) }),
  defineHandler(endpoints.materialList, { handle: (input, ctx) => listMaterials(input, ctx) }),
  defineHandler(endpoints.materialDetail, { handle: (input, ctx) => materialDetail(input, ctx) }),
  defineHandler(endpoints.materialRename, { handle: (input, ctx) => renameMaterial(input, ctx) }),
  defineHandler(endpoints.materialMove, { handle: (input, ctx) => moveMaterials(input, ctx) }),
  defineHandler(endpoints.materialSetCategory, { handle: (input, ctx) => setMaterialCategory(input, ctx) }),
  defineHandler(endpoints.materialDelete, { handle: (input, ctx) => deleteMaterials(input, ctx) }),
  defineHandler(endpoints.materialUploadCheck, { handle: (input, ctx) => checkUpload(input, ctx) }),
  defineHandler(endpoints.materialUploadApply, { handle: (input, ctx) => applyUpload(input, ctx) }),
  defineHandler(endpoints.materialUploadVerify, {
    prepare: (input, ctx) => inspectUpload(input, ctx),
    handle: (input, ctx, file) => verifyUpload(input, ctx, file),
  }),
  defineHandler(endpoints.materialMediaAdd, { handle: (input, ctx) => addMedia(input, ctx) }),
  defineHandler(endpoints.materialStorageUsage, { handle: (_input, ctx) => storageUsage(ctx) }),
];
