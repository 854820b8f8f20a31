import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import './exportSource.js';
import './letters.js';
import {
  startWarningExport,
  warningAcknowledge,
  warningExportDownload,
  warningExportStatus,
  warningList,
  warningSettings,
  warningSettingsSave,
} from './service.js';

export const warningsHandlers = [
  defineHandler(endpoints.warningsList, { handle: (input, ctx) => warningList(input, ctx) }),
  defineHandler(endpoints.warningsAcknowledge, { handle: (input, ctx) => warningAcknowledge(input, ctx) }),
  defineHandler(endpoints.warningsExportStart, { handle: (input, ctx) => startWarningExport(input, ctx) }),
  defineHandler(endpoints.warningsExportStatus, { handle: (input, ctx) => warningExportStatus(input, ctx) }),
  defineHandler(endpoints.warningsExportDownload, { handle: (input, ctx) => warningExportDownload(input, ctx) }),
  defineHandler(endpoints.warningsSettings, { handle: (_input, ctx) => warningSettings(ctx) }),
  defineHandler(endpoints.warningsSettingsSave, { handle: (input, ctx) => warningSettingsSave(input, ctx) }),
];
