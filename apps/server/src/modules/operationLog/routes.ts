import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import { exportDownload, exportStatus, listLogs, logFilterOptions, startExport } from './service.js';

export const operationLogHandlers = [
  defineHandler(endpoints.operationLogList, { handle: (input, ctx) => listLogs(input, ctx) }),
  defineHandler(endpoints.operationLogOptions, { handle: (_input, ctx) => logFilterOptions(ctx) }),
  defineHandler(endpoints.operationLogExportStart, { handle: (input, ctx) => startExport(input, ctx) }),
  defineHandler(endpoints.operationLogExportStatus, { handle: (input, ctx) => exportStatus(input, ctx) }),
  defineHandler(endpoints.operationLogExportDownload, { handle: (input, ctx) => exportDownload(input, ctx) }),
];
