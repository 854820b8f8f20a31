import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import './layouts.js';
import { offlinePackage } from './offlinePackage.js';
import { assignLayout } from './service.js';

export const contentHandlers = [
  defineHandler(endpoints.deviceAssignLayout, { handle: (input, ctx) => assignLayout(input, ctx) }),
  defineHandler(endpoints.deviceOfflinePackage, { handle: (input, ctx) => offlinePackage(input, ctx) }),
];
