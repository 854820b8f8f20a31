import { z } from 'zod';
import { Perm } from '../permissions.js';
import { endpoint } from './common.js';
import { deviceEndpoints } from './devices.js';
import { exportFollowUps, exportStatusSchema } from './operationLog.js';

/**
 * Device Excel export and import (spec section 7: devices export, Excel import).
 *
 * Export runs in the background through the operation log's export mechanism (one exports
 * table, one job, files kept 7 days): start with the device list's filters, poll the status
 * for progress, download when done.
 *
 * Import: the caller downloads a template in its language, fills one row per screen and
 * uploads the sheet (base64 of the .xlsx in the payload). Every row is checked (number
 * format, name length, department within the caller's scope, duplicates within the sheet
 * and against existing numbers); when any row is invalid the answer lists every error
 * (row, column, message in the caller's language) and NOTHING is written. When all rows are
 * valid the devices are pre-registered in one transaction as `activating` with their
 * number; a player that later pairs reporting that number is bound to its row when an
 * operator adds it by number (device.add).
 */

/** Rows one import may carry. */
export const DEVICE_IMPORT_MAX_ROWS = 2000;
/** Largest sheet accepted (bytes of the .xlsx). */
export const DEVICE_IMPORT_MAX_BYTES = 512 * 1024;
/** Longest device name (the name rule of device.add). */
export const DEVICE_NAME_MAX = 64;
/** The template's columns, in order. */
export const DEVICE_IMPORT_COLUMNS = ['number', 'name', 'department'] as const;
export type DeviceImportColumn = (typeof DEVICE_IMPORT_COLUMNS)[number];

/** The device list's filters (device.list without its page), shared by the export. */
export const deviceExportFilterSchema = deviceEndpoints.deviceList.request.omit({ page: true, size: true });

export const deviceImportErrorSchema = z.object({
  /** The sheet's row number as Excel shows it (the header is row 1). */
  row: z.number(),
  /** A column of DEVICE_IMPORT_COLUMNS, a custom field's key (issue 31), or null for the whole sheet. */
  column: z.string().nullable(),
  message: z.string(),
});
export type DeviceImportError = z.infer<typeof deviceImportErrorSchema>;

const deviceExport = exportFollowUps({
  name: 'device.export',
  path: '/api/device/export',
  permission: Perm.device,
  object: 'deviceExport',
});

export const deviceIoEndpoints = {
  deviceExportStart: endpoint({
    name: 'device.exportStart',
    path: '/api/device/exportStart.shtm',
    auth: 'session',
    permission: Perm.device,
    mutation: true,
    notForMonitor: true,
    request: deviceExportFilterSchema,
    response: exportStatusSchema,
  }),
  deviceExportStatus: deviceExport.status,
  deviceExportDownload: deviceExport.download,
  deviceImportTemplate: endpoint({
    name: 'device.importTemplate',
    path: '/api/device/importTemplate.shtm',
    auth: 'session',
    permission: Perm.device,
    unscoped: 'a blank template with an example row, in the caller language',
    download: true,
    notForMonitor: true,
    request: z.object({}).strict(),
    response: z.unknown(),
  }),
  deviceImport: endpoint({
    name: 'device.import',
    path: '/api/device/import.shtm',
    auth: 'session',
    permission: Perm.device,
    mutation: true,
    notForMonitor: true,
    request: z
      .object({
        fileName: z.string().trim().min(1).max(200),
        /** The .xlsx, base64. */
        file: z
          .string()
          .min(1)
          .max(Math.ceil(DEVICE_IMPORT_MAX_BYTES / 3) * 4)
          .regex(/^[A-Za-z0-9+/]+={0,2}$/),
      })
      .strict(),
    response: z.object({
      /** Devices pre-registered (0 when any row is invalid). */
      imported: z.number(),
      /** Rows read from the sheet. */
      rows: z.number(),
      errors: z.array(deviceImportErrorSchema),
    }),
  }),
} as const;
