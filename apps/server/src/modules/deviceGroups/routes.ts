import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import {
  assignGroup,
  createGroup,
  deleteGroups,
  groupDetail,
  groupOptions,
  listGroups,
  updateGroup,
} from './service.js';
import { applyShare, importShare, shareTemplate } from './share.js';
import {
  assignTags,
  createCategory,
  createTag,
  deleteCategory,
  deleteTags,
  listCategories,
  listTags,
  tagDetail,
  tagOptions,
  updateCategory,
  updateTag,
} from './tags.js';

export const deviceGroupHandlers = [
  defineHandler(endpoints.deviceGroupList, { handle: (input, ctx) => listGroups(input, ctx) }),
  defineHandler(endpoints.deviceGroupOptions, { handle: (_input, ctx) => groupOptions(ctx) }),
  defineHandler(endpoints.deviceGroupDetail, { handle: (input, ctx) => groupDetail(input, ctx) }),
  defineHandler(endpoints.deviceGroupCreate, { handle: (input, ctx) => createGroup(input, ctx) }),
  defineHandler(endpoints.deviceGroupUpdate, { handle: (input, ctx) => updateGroup(input, ctx) }),
  defineHandler(endpoints.deviceGroupDelete, { handle: (input, ctx) => deleteGroups(input, ctx) }),
  defineHandler(endpoints.deviceGroupAssign, { handle: (input, ctx) => assignGroup(input, ctx) }),
  defineHandler(endpoints.tagCategoryList, { handle: (_input, ctx) => listCategories(ctx) }),
  defineHandler(endpoints.tagCategoryCreate, { handle: (input, ctx) => createCategory(input, ctx) }),
  defineHandler(endpoints.tagCategoryUpdate, { handle: (input, ctx) => updateCategory(input, ctx) }),
  defineHandler(endpoints.tagCategoryDelete, { handle: (input, ctx) => deleteCategory(input, ctx) }),
  defineHandler(endpoints.deviceTagList, { handle: (input, ctx) => listTags(input, ctx) }),
  defineHandler(endpoints.deviceTagOptions, { handle: (_input, ctx) => tagOptions(ctx) }),
  defineHandler(endpoints.deviceTagDetail, { handle: (input, ctx) => tagDetail(input, ctx) }),
  defineHandler(endpoints.deviceTagCreate, { handle: (input, ctx) => createTag(input, ctx) }),
  defineHandler(endpoints.deviceTagUpdate, { handle: (input, ctx) => updateTag(input, ctx) }),
  defineHandler(endpoints.deviceTagDelete, { handle: (input, ctx) => deleteTags(input, ctx) }),
  defineHandler(endpoints.deviceTagAssign, { handle: (input, ctx) => assignTags(input, ctx) }),
  defineHandler(endpoints.deviceShareApply, { handle: (input, ctx) => applyShare(input, ctx) }),
  defineHandler(endpoints.deviceShareImport, { handle: (input, ctx) => importShare(input, ctx) }),
  defineHandler(endpoints.deviceShareTemplate, { handle: (_input, ctx) => shareTemplate(ctx) }),
];
