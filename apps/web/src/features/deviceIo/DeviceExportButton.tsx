import type { Endpoints, Req } from '@marquee/protocol';
import { ExportButton } from '../../components/ExportDialog';

export type DeviceExportFilter = Req<Endpoints['deviceExportStart']>;

/**
 * The device list's Excel export (spec section 7): a button that starts a background export
 * with the list's current filters (those of device.list) and shows its progress until the
 * file downloads. For the /device list page's toolbar: `<DeviceExportButton filter={filters} />`.
 */
export function DeviceExportButton({ filter = {} }: { filter?: DeviceExportFilter }) {
  return (
    <ExportButton
      ns="deviceIo"
      testId="device-export"
      calls={{ start: 'deviceExportStart', status: 'deviceExportStatus', download: 'deviceExportDownload' }}
      request={filter}
    />
  );
}
