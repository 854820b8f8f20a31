import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import { templatePage } from './service.js';

export const templateHandlers = [
  defineHandler(endpoints.templatePage, { handle: (input, ctx) => templatePage(input, ctx) }),
];
