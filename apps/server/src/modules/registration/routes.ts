import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import { checkRegistration, register } from './service.js';

export const registrationHandlers = [
  defineHandler(endpoints.register, {
    prepare: (input, ctx) => checkRegistration(input, ctx),
    handle: (input, ctx, checked) => register(input, ctx, checked),
  }),
];
