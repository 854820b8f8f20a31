import type { OperationLogFilter } from '@marquee/protocol';
import { call, download } from '../../api/client';
import { ExportDialog as BackgroundExportDialog } from '../../components/ExportDialog';

/** The operation log's export: the shared background-export dialog on the log's three calls. */
export function ExportDialog({ filter, onClose }: { filter: OperationLogFilter | null; onClose: () => void }) {
  return (
    <BackgroundExportDialog
      filter={filter}
      onClose={onClose}
      ns="operationLog"
      testIdPrefix="oplog-export"
      start={(f) => call('operationLogExportStart', f)}
      status={(exportId) => call('operationLogExportStatus', { exportId })}
      fetchFile={(exportId) => download('operationLogExportDownload', { exportId })}
    />
  );
}
