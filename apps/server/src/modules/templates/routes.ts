import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import { copyTemplate, deleteTemplate, saveTemplate, templateInfo, templatePage, updateTemplate } from './service.js';

export const templateHandlers = [
  defineHandler(endpoints.templatePage, { handle: (input, ctx) => templatePage(input, ctx) }),
  defineHandler(endpoints.templateInfo, { handle: (input, ctx) => templateInfo(input, ctx) }),
  defineHandler(endpoints.templateSave, { handle: (input, ctx) => saveTemplate(input, ctx) }),
  defineHandler(endpoints.templateUpdate, { handle: (input, ctx) => updateTemplate(input, ctx) }),
  defineHandler(endpoints.templateCopy, { handle: (input, ctx) => copyTemplate(input, ctx) }),
  defineHandler(endpoints.templateDelete, { handle: (input, ctx) => deleteTemplate(input, ctx) }),
];
