import { type EndpointDef, ErrorCode, endpoints } from '@marquee/protocol';
import { AppError } from '../../protocol/appError.js';
import { defineHandler, type Handler } from '../../protocol/handlers.js';

const notYet = (def: EndpointDef): Handler =>
  defineHandler(def, {
    handle: async () => {
      throw new AppError(ErrorCode.FEATURE_NOT_ONLINE);
    },
  });

/** The material library's handlers (being built: the catalogue first). */
export const materialHandlers: Handler[] = [
  endpoints.materialFolderTree,
  endpoints.materialFolderCreate,
  endpoints.materialFolderRename,
  endpoints.materialFolderMove,
  endpoints.materialFolderDelete,
  endpoints.materialCategoryList,
  endpoints.materialCategoryCreate,
  endpoints.materialCategoryUpdate,
  endpoints.materialCategoryDelete,
  endpoints.materialList,
  endpoints.materialDetail,
  endpoints.materialRename,
  endpoints.materialMove,
  endpoints.materialSetCategory,
  endpoints.materialDelete,
  endpoints.materialUploadCheck,
  endpoints.materialUploadApply,
  endpoints.materialUploadVerify,
  endpoints.materialMediaAdd,
  endpoints.materialStorageUsage,
].map(notYet);
