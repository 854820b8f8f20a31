import { DownloadOutlined } from '@ant-design/icons';
import type { Endpoints, Req } from '@marquee/protocol';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, download } from '../../api/client';
import { ExportDialog } from '../../components/ExportDialog';
import { NotForMonitor } from '../../components/MonitorGuard';

export type DeviceExportFilter = Req<Endpoints['deviceExportStart']>;

/**
 * The device list's Excel export (spec section 7): a button that starts a background export
 * with the list's current filters (those of device.list) and shows its progress until the
 * file downloads. For the /device list page's toolbar: `<DeviceExportButton filter={filters} />`.
 */
export function DeviceExportButton({ filter = {} }: { filter?: DeviceExportFilter }) {
  const { t } = useTranslation('deviceIo');
  const [exporting, setExporting] = useState<DeviceExportFilter | null>(null);
  return (
    <NotForMonitor>
      <Button icon={<DownloadOutlined />} onClick={() => setExporting({ ...filter })} data-testid="device-export">
        {t('export.button')}
      </Button>
      <ExportDialog
        filter={exporting}
        onClose={() => setExporting(null)}
        ns="deviceIo"
        testIdPrefix="device-export"
        start={(f) => call('deviceExportStart', f)}
        status={(exportId) => call('deviceExportStatus', { exportId })}
        fetchFile={(exportId) => download('deviceExportDownload', { exportId })}
      />
    </NotForMonitor>
  );
}
