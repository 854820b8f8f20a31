import type { deviceReportFilterSchema } from '@marquee/protocol';
import type { z } from 'zod';
import { call, download } from '../../api/client';
import { ExportDialog as BackgroundExportDialog } from '../../components/ExportDialog';

export type DeviceReportFilter = z.input<typeof deviceReportFilterSchema>;

/** The device report's export: the shared background-export dialog on the report's three calls. */
export function ExportDialog({ filter, onClose }: { filter: DeviceReportFilter | null; onClose: () => void }) {
  return (
    <BackgroundExportDialog
      filter={filter}
      onClose={onClose}
      ns="deviceReports"
      testIdPrefix="device-report-export"
      start={(f) => call('reportDeviceExportStart', f)}
      status={(exportId) => call('reportDeviceExportStatus', { exportId })}
      fetchFile={(exportId) => download('reportDeviceExportDownload', { exportId })}
    />
  );
}
