import { DownloadOutlined } from '@ant-design/icons';
import type { ExportStatus } from '@marquee/protocol';
import { Button, Tag } from 'antd';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, download } from '../../api/client';
import { ExportDialog } from '../../components/ExportDialog';
import { NotForMonitor } from '../../components/MonitorGuard';

/** Play time (ms) as h:mm:ss (hours unbounded). */
export function playTime(ms: number): string {
  const s = Math.round(ms / 1000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(s / 3600)}:${p(Math.floor((s % 3600) / 60))}:${p(s % 60)}`;
}

/** A percentage with 2 decimals, or a dash when there is none (nothing expected, no valid day). */
export function pctText(value: number | null): string {
  return value === null ? '—' : `${value.toFixed(2)} %`;
}

/** The delivery of a row: its percentage, tagged when under-delivered. */
export function deliveryCell(t: TFunction, row: { deliveryPct: number | null; underDelivered: boolean }) {
  return (
    <span>
      {pctText(row.deliveryPct)}
      {row.underDelivered ? (
        <Tag color="error" style={{ marginInlineStart: 6 }} data-testid="under-delivered">
          {t('reports:under')}
        </Tag>
      ) : null}
    </span>
  );
}

/**
 * A report's Excel export: starts the background export with the page's current filters
 * (`start`) and shows its progress until the file downloads (the one export dialog).
 */
export function ReportExportButton({ start, testId }: { start: () => Promise<ExportStatus>; testId: string }) {
  const { t } = useTranslation('reports');
  const [exporting, setExporting] = useState<{ at: number } | null>(null);
  return (
    <NotForMonitor>
      <Button icon={<DownloadOutlined />} onClick={() => setExporting({ at: Date.now() })} data-testid={testId}>
        {t('export.button')}
      </Button>
      <ExportDialog
        filter={exporting}
        onClose={() => setExporting(null)}
        ns="reports"
        testIdPrefix={testId}
        start={() => start()}
        status={(exportId) => call('reportExportStatus', { exportId })}
        fetchFile={(exportId) => download('reportExportDownload', { exportId })}
      />
    </NotForMonitor>
  );
}
