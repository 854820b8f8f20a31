import type { EndpointName, Endpoints, Req } from '@marquee/protocol';
import { Tag } from 'antd';
import type { TFunction } from 'i18next';
import { ExportButton } from '../../components/ExportDialog';
import type { TableColumn } from '../../components/tableConfig';

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

/** A report's plays and play time columns (the list sorts by both). */
export function playColumns<T>(t: TFunction): TableColumn<T>[] {
  return [
    { prop: 'plays', label: t('reports:field.plays'), width: 110, align: 'right', showThousands: true, sortable: true },
    {
      prop: 'durationMs',
      label: t('reports:field.playTime'),
      width: 120,
      align: 'right',
      sortable: true,
      slot: (v: number) => playTime(v),
    },
  ];
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
 * A report's Excel export: the background export of the page's current request by its
 * `start` call; the reports share the status and download calls.
 */
export function ReportExportButton<N extends EndpointName>({
  start,
  request,
  testId,
}: {
  start: N;
  request: Req<Endpoints[N]>;
  testId: string;
}) {
  return (
    <ExportButton
      ns="reports"
      testId={testId}
      calls={{ start, status: 'reportExportStatus', download: 'reportExportDownload' }}
      request={request}
    />
  );
}
