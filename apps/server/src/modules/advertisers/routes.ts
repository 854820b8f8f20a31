import { endpoints } from '@marquee/protocol';
import { hashPassword } from '../../auth/passwords.js';
import { defineHandler } from '../../protocol/handlers.js';
import {
  addAdvertiser,
  assignAdvertisers,
  deleteAdvertiser,
  listVisibleAdvertisers,
  setAdvertiserStatus,
  staffOptions,
  unassignAdvertisers,
  updateAdvertiser,
} from './service.js';

export const advertiserHandlers = [
  defineHandler(endpoints.advertiserList, { handle: (input, ctx) => listVisibleAdvertisers(input, ctx) }),
  defineHandler(endpoints.advertiserAllotList, { handle: (input, ctx) => listVisibleAdvertisers(input, ctx) }),
  defineHandler(endpoints.advertiserAdd, {
    // Hashing is slow: done before the transaction opens.
    prepare: (input) => hashPassword(input.password),
    handle: (input, ctx, passwordHash: string) => addAdvertiser(input, ctx, passwordHash),
  }),
  defineHandler(endpoints.advertiserUpdate, { handle: (input, ctx) => updateAdvertiser(input, ctx) }),
  defineHandler(endpoints.advertiserSetStatus, { handle: (input, ctx) => setAdvertiserStatus(input, ctx) }),
  defineHandler(endpoints.advertiserDelete, { handle: (input, ctx) => deleteAdvertiser(input, ctx) }),
  defineHandler(endpoints.advertiserStaffOptions, { handle: (_input, ctx) => staffOptions(ctx) }),
  defineHandler(endpoints.advertiserAssign, { handle: (input, ctx) => assignAdvertisers(input, ctx) }),
  defineHandler(endpoints.advertiserUnassign, { handle: (input, ctx) => unassignAdvertisers(input, ctx) }),
];
