import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import './exportSource.js';
import {
  deviceReportDetail,
  deviceReportExportDownload,
  deviceReportExportStatus,
  deviceReportList,
  startDeviceReportExport,
} from './service.js';

export const deviceReportHandlers = [
  defineHandler(endpoints.reportDeviceList, { handle: (input, ctx) => deviceReportList(input, ctx) }),
  defineHandler(endpoints.reportDeviceDetail, { handle: (input, ctx) => deviceReportDetail(input, ctx) }),
  defineHandler(endpoints.reportDeviceExportStart, { handle: (input, ctx) => startDeviceReportExport(input, ctx) }),
  defineHandler(endpoints.reportDeviceExportStatus, { handle: (input, ctx) => deviceReportExportStatus(input, ctx) }),
  defineHandler(endpoints.reportDeviceExportDownload, {
    handle: (input, ctx) => deviceReportExportDownload(input, ctx),
  }),
];
