import { endpoints } from '@marquee/protocol';
import { defineHandler, type Handler } from '../../protocol/handlers.js';
import './exportSource.js';
import {
  alarmExportDownload,
  alarmExportStatus,
  alarmReport,
  eventAct,
  eventCount,
  eventInfo,
  eventList,
  regionDelete,
  regionList,
  regionSave,
  startAlarmExport,
} from './service.js';

export const alarmHandlers = [
  defineHandler(endpoints.alarmRegionList, { handle: (input, ctx) => regionList(input, ctx) }),
  defineHandler(endpoints.alarmRegionSave, { handle: (input, ctx) => regionSave(input, ctx) }),
  defineHandler(endpoints.alarmRegionDelete, { handle: (input, ctx) => regionDelete(input, ctx) }),
  defineHandler(endpoints.alarmEventList, { handle: (input, ctx) => eventList(input, ctx) }),
  defineHandler(endpoints.alarmEventInfo, { handle: (input, ctx) => eventInfo(input, ctx) }),
  defineHandler(endpoints.alarmEventCount, { handle: (input, ctx) => eventCount(input, ctx) }),
  defineHandler(endpoints.alarmEventAct, { handle: (input, ctx) => eventAct(input, ctx) }),
  defineHandler(endpoints.alarmReport, { handle: (input, ctx) => alarmReport(input, ctx) }),
  defineHandler(endpoints.alarmExportStart, { handle: (input, ctx) => startAlarmExport(input, ctx) }),
  defineHandler(endpoints.alarmExportStatus, { handle: (input, ctx) => alarmExportStatus(input, ctx) }),
  defineHandler(endpoints.alarmExportDownload, { handle: (input, ctx) => alarmExportDownload(input, ctx) }),
] as Handler[];
