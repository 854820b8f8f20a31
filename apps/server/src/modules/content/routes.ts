import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import './layouts.js';
import { assignLayout } from './service.js';

export const contentHandlers = [
  defineHandler(endpoints.deviceAssignLayout, { handle: (input, ctx) => assignLayout(input, ctx) }),
];
