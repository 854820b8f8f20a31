import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import {
  addStrategy,
  applyStrategy,
  deleteStrategy,
  listVisibleStrategies,
  strategiesForDevice,
  strategyApplication,
  strategyDetail,
  updateStrategy,
} from './service.js';

export const strategyHandlers = [
  defineHandler(endpoints.strategyList, { handle: (input, ctx) => listVisibleStrategies(input, ctx) }),
  defineHandler(endpoints.strategyDetail, { handle: (input, ctx) => strategyDetail(input, ctx) }),
  defineHandler(endpoints.strategyAdd, { handle: (input, ctx) => addStrategy(input, ctx) }),
  defineHandler(endpoints.strategyUpdate, { handle: (input, ctx) => updateStrategy(input, ctx) }),
  defineHandler(endpoints.strategyDelete, { handle: (input, ctx) => deleteStrategy(input, ctx) }),
  defineHandler(endpoints.strategyApply, { handle: (input, ctx) => applyStrategy(input, ctx) }),
  defineHandler(endpoints.strategyApplication, { handle: (input, ctx) => strategyApplication(input, ctx) }),
  defineHandler(endpoints.strategyOfDevice, { handle: (input, ctx) => strategiesForDevice(input, ctx) }),
];
