import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import {
  deleteScreenshots,
  getSettings,
  latestScreenshots,
  saveSettings,
  screenshotHistory,
  takeScreenshots,
} from './service.js';

export const screenshotHandlers = [
  defineHandler(endpoints.screenshotTake, { handle: (input, ctx) => takeScreenshots(input, ctx) }),
  defineHandler(endpoints.screenshotLatest, { handle: (input, ctx) => latestScreenshots(input, ctx) }),
  defineHandler(endpoints.screenshotHistory, { handle: (input, ctx) => screenshotHistory(input, ctx) }),
  defineHandler(endpoints.screenshotDelete, { handle: (input, ctx) => deleteScreenshots(input, ctx) }),
  defineHandler(endpoints.screenshotSettings, { handle: (_input, ctx) => getSettings(ctx) }),
  defineHandler(endpoints.screenshotSaveSettings, { handle: (input, ctx) => saveSettings(input, ctx) }),
];
