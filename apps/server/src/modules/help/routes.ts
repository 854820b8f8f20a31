import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import * as s from './service.js';

export const helpHandlers = [
  defineHandler(endpoints.helpCategories, { handle: (_input, ctx) => s.categories(ctx) }),
  defineHandler(endpoints.helpList, { handle: (input, ctx) => s.list(input, ctx) }),
  defineHandler(endpoints.helpInfo, { handle: (input, ctx) => s.info(input, ctx) }),
  defineHandler(endpoints.helpManageInfo, { handle: (input, ctx) => s.manageInfo(input, ctx) }),
  defineHandler(endpoints.helpCategorySave, { handle: (input, ctx) => s.categorySave(input, ctx) }),
  defineHandler(endpoints.helpCategoryDelete, { handle: (input, ctx) => s.categoryDelete(input, ctx) }),
  defineHandler(endpoints.helpImageApply, { handle: (input, ctx) => s.imageApply(input, ctx) }),
  defineHandler(endpoints.helpSave, { handle: (input, ctx) => s.save(input, ctx) }),
  defineHandler(endpoints.helpPublish, { handle: (input, ctx) => s.publish(input, ctx) }),
  defineHandler(endpoints.helpDelete, { handle: (input, ctx) => s.remove(input, ctx) }),
];
