import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import './exportSource.js';
import { qrcodeExportDownload, qrcodeExportStatus, qrcodeReport, startQrcodeExport } from './service.js';

export const qrcodeHandlers = [
  defineHandler(endpoints.qrcodeReport, { handle: (input, ctx) => qrcodeReport(input, ctx) }),
  defineHandler(endpoints.qrcodeExportStart, { handle: (input, ctx) => startQrcodeExport(input, ctx) }),
  defineHandler(endpoints.qrcodeExportStatus, { handle: (input, ctx) => qrcodeExportStatus(input, ctx) }),
  defineHandler(endpoints.qrcodeExportDownload, { handle: (input, ctx) => qrcodeExportDownload(input, ctx) }),
];
