import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import * as s from './service.js';

export const dictionaryHandlers = [
  defineHandler(endpoints.dictionaryList, { handle: (input, ctx) => s.list(input, ctx) }),
  defineHandler(endpoints.dictionaryManageList, { handle: (input, ctx) => s.manageList(input, ctx) }),
  defineHandler(endpoints.dictionarySave, { handle: (input, ctx) => s.save(input, ctx) }),
  defineHandler(endpoints.dictionaryReorder, { handle: (input, ctx) => s.reorder(input, ctx) }),
  defineHandler(endpoints.dictionarySetEnabled, { handle: (input, ctx) => s.setEnabled(input, ctx) }),
  defineHandler(endpoints.dictionaryDelete, { handle: (input, ctx) => s.remove(input, ctx) }),
];
