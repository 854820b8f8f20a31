import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import { type ParsedSheet, parseDeviceSheet } from './importSheet.js';
import {
  deviceExportDownload,
  deviceExportStatus,
  importDevices,
  importTemplate,
  startDeviceExport,
} from './service.js';

export const deviceIoHandlers = [
  defineHandler(endpoints.deviceExportStart, { handle: (input, ctx) => startDeviceExport(input, ctx) }),
  defineHandler(endpoints.deviceExportStatus, { handle: (input, ctx) => deviceExportStatus(input, ctx) }),
  defineHandler(endpoints.deviceExportDownload, { handle: (input, ctx) => deviceExportDownload(input, ctx) }),
  defineHandler(endpoints.deviceImportTemplate, { handle: (_input, ctx) => importTemplate(ctx) }),
  defineHandler(endpoints.deviceImport, {
    // Reading the workbook is CPU work: done before the transaction opens.
    prepare: (input) => parseDeviceSheet(input.file),
    handle: (input, ctx, sheet: ParsedSheet) => importDevices(input, sheet, ctx),
  }),
];
