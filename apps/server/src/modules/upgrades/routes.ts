import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import {
  packageApply,
  packageDelete,
  packageList,
  packageVerify,
  rolloutContinue,
  rolloutCreate,
  rolloutHalt,
  rolloutInfo,
  rolloutList,
  rolloutResume,
  rolloutRollback,
} from './service.js';

export const upgradeHandlers = [
  defineHandler(endpoints.upgradePackageApply, { handle: (input, ctx) => packageApply(input, ctx) }),
  defineHandler(endpoints.upgradePackageVerify, { handle: (input, ctx) => packageVerify(input, ctx) }),
  defineHandler(endpoints.upgradePackageList, { handle: (input, ctx) => packageList(input, ctx) }),
  defineHandler(endpoints.upgradePackageDelete, { handle: (input, ctx) => packageDelete(input, ctx) }),
  defineHandler(endpoints.upgradeRolloutCreate, { handle: (input, ctx) => rolloutCreate(input, ctx) }),
  defineHandler(endpoints.upgradeRolloutList, { handle: (input, ctx) => rolloutList(input, ctx) }),
  defineHandler(endpoints.upgradeRolloutInfo, { handle: (input, ctx) => rolloutInfo(input, ctx) }),
  defineHandler(endpoints.upgradeRolloutHalt, { handle: (input, ctx) => rolloutHalt(input, ctx) }),
  defineHandler(endpoints.upgradeRolloutResume, { handle: (input, ctx) => rolloutResume(input, ctx) }),
  defineHandler(endpoints.upgradeRolloutContinue, { handle: (input, ctx) => rolloutContinue(input, ctx) }),
  defineHandler(endpoints.upgradeRolloutRollback, { handle: (input, ctx) => rolloutRollback(input, ctx) }),
];
