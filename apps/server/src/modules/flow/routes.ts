import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import './exportSource.js';
import './letters.js';
import { type ParsedCardSheet, parseCardSheet } from './importSheet.js';
import {
  cardAdd,
  cardBind,
  cardImport,
  cardImportTemplate,
  cardInfo,
  cardList,
  cardTransition,
  cardUpdate,
  startUsageExport,
  usageExportDownload,
  usageExportStatus,
  usageReport,
} from './service.js';

export const flowHandlers = [
  defineHandler(endpoints.flowCardList, { handle: (input, ctx) => cardList(input, ctx) }),
  defineHandler(endpoints.flowCardInfo, { handle: (input, ctx) => cardInfo(input, ctx) }),
  defineHandler(endpoints.flowCardAdd, { handle: (input, ctx) => cardAdd(input, ctx) }),
  defineHandler(endpoints.flowCardUpdate, { handle: (input, ctx) => cardUpdate(input, ctx) }),
  defineHandler(endpoints.flowCardImportTemplate, { handle: (_input, ctx) => cardImportTemplate(ctx) }),
  defineHandler(endpoints.flowCardImport, {
    // Reading the workbook is CPU work: done before the transaction opens.
    prepare: (input) => parseCardSheet(input.file),
    handle: (input, ctx, sheet: ParsedCardSheet) => cardImport(input, sheet, ctx),
  }),
  defineHandler(endpoints.flowCardBind, { handle: (input, ctx) => cardBind(input, ctx) }),
  defineHandler(endpoints.flowCardTransition, { handle: (input, ctx) => cardTransition(input, ctx) }),
  defineHandler(endpoints.flowUsageReport, { handle: (input, ctx) => usageReport(input, ctx) }),
  defineHandler(endpoints.flowUsageExportStart, { handle: (input, ctx) => startUsageExport(input, ctx) }),
  defineHandler(endpoints.flowUsageExportStatus, { handle: (input, ctx) => usageExportStatus(input, ctx) }),
  defineHandler(endpoints.flowUsageExportDownload, { handle: (input, ctx) => usageExportDownload(input, ctx) }),
];
