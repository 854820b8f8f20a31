import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import './exportSource.js';
import './letters.js';
import {
  financeMovements,
  financeSetLowBalance,
  financeStatement,
  financeSummary,
  financeWallets,
  invoiceIssue,
  invoiceList,
  invoiceRefuse,
  invoiceRequest,
  movementExportDownload,
  movementExportStatus,
  startMovementExport,
} from './service.js';

export const financeHandlers = [
  defineHandler(endpoints.financeWallets, { handle: (input, ctx) => financeWallets(input, ctx) }),
  defineHandler(endpoints.financeSummary, { handle: (input, ctx) => financeSummary(input, ctx) }),
  defineHandler(endpoints.financeMovements, { handle: (input, ctx) => financeMovements(input, ctx) }),
  defineHandler(endpoints.financeStatement, { handle: (input, ctx) => financeStatement(input, ctx) }),
  defineHandler(endpoints.financeSetLowBalance, { handle: (input, ctx) => financeSetLowBalance(input, ctx) }),
  defineHandler(endpoints.financeMovementExportStart, { handle: (input, ctx) => startMovementExport(input, ctx) }),
  defineHandler(endpoints.financeMovementExportStatus, { handle: (input, ctx) => movementExportStatus(input, ctx) }),
  defineHandler(endpoints.financeMovementExportDownload, {
    handle: (input, ctx) => movementExportDownload(input, ctx),
  }),
  defineHandler(endpoints.invoiceList, { handle: (input, ctx) => invoiceList(input, ctx) }),
  defineHandler(endpoints.invoiceRequest, { handle: (input, ctx) => invoiceRequest(input, ctx) }),
  defineHandler(endpoints.invoiceIssue, { handle: (input, ctx) => invoiceIssue(input, ctx) }),
  defineHandler(endpoints.invoiceRefuse, { handle: (input, ctx) => invoiceRefuse(input, ctx) }),
];
