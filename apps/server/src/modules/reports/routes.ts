import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import { callerOf, reportExportDownload, reportExportStatus, startReportExport } from './exports.js';
import { adReportDetail, adReportDevices, adReportList, deviceScheduleReport } from './service.js';

export const reportHandlers = [
  defineHandler(endpoints.reportAdList, { handle: (input, ctx) => adReportList(callerOf(ctx), input) }),
  defineHandler(endpoints.reportAdDetail, { handle: (input, ctx) => adReportDetail(callerOf(ctx), input) }),
  defineHandler(endpoints.reportAdDevices, { handle: (input, ctx) => adReportDevices(callerOf(ctx), input) }),
  defineHandler(endpoints.reportDeviceSchedule, {
    handle: (input, ctx) => deviceScheduleReport(callerOf(ctx), input),
  }),
  defineHandler(endpoints.reportAdListExportStart, {
    handle: (input, ctx) => startReportExport({ report: 'adList', input }, ctx),
  }),
  defineHandler(endpoints.reportAdDetailExportStart, {
    handle: (input, ctx) => startReportExport({ report: 'adDetail', input }, ctx),
  }),
  defineHandler(endpoints.reportDeviceScheduleExportStart, {
    handle: (input, ctx) => startReportExport({ report: 'deviceSchedule', input }, ctx),
  }),
  defineHandler(endpoints.reportExportStatus, { handle: (input, ctx) => reportExportStatus(input, ctx) }),
  defineHandler(endpoints.reportExportDownload, { handle: (input, ctx) => reportExportDownload(input, ctx) }),
];
