import { DownloadOutlined } from '@ant-design/icons';
import type { EndpointName, Endpoints, ExportStatus, Req } from '@marquee/protocol';
import { useMutation, useQuery } from '@tanstack/react-query';
import { App, Button, Modal, Progress, Result, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, download } from '../api/client';
import { NotForMonitor } from './MonitorGuard';

const POLL_MS = 500;

export interface ExportDialogProps<F> {
  /** The filter to export with; opening the dialog (a filter given) starts one export. */
  filter: F | null;
  onClose: () => void;
  /** The i18n namespace holding the dialog's `export.*` texts (title, running, done, failed...). */
  ns: string;
  /** Prefix of the dialog's test ids (`<prefix>-progress`, `-download`, `-close`). */
  testIdPrefix: string;
  /** Starts the export (the domain's exportStart call). */
  start: (filter: F) => Promise<ExportStatus>;
  /** Reads its status (the domain's exportStatus call). */
  status: (exportId: string) => Promise<ExportStatus>;
  /** Saves the finished file; resolves with its name (the domain's exportDownload through `download`). */
  fetchFile: (exportId: string) => Promise<string>;
}

/**
 * The progress of a background Excel export (the operation log's export mechanism, used by
 * every export): opening it (a filter given) starts the export, polls its status and shows
 * the share of rows written; when the file is ready it is downloaded under the server's file
 * name, and can be downloaded again from the dialog.
 */
export function ExportDialog<F>({ filter, onClose, ns, testIdPrefix, start, status, fetchFile }: ExportDialogProps<F>) {
  const { t } = useTranslation(ns);
  const { message } = App.useApp();
  const started = useMutation({ mutationFn: (f: F) => start(f) });
  const exportId = started.data?.exportId;
  const downloaded = useRef<string | null>(null);
  const { mutate: startExport, reset: resetStart } = started;

  // One export per opening (StrictMode runs effects twice in development).
  const startedFor = useRef<F | null>(null);
  useEffect(() => {
    if (filter && startedFor.current !== filter) {
      startedFor.current = filter;
      startExport(filter);
    } else if (!filter) {
      startedFor.current = null;
      resetStart();
    }
  }, [filter, startExport, resetStart]);

  const progress = useQuery({
    queryKey: ['exportStatus', ns, exportId],
    queryFn: () => status(exportId as string),
    enabled: Boolean(exportId),
    refetchInterval: (q) => {
      const s = (q.state.data as ExportStatus | undefined)?.status;
      return s === 'done' || s === 'failed' ? false : POLL_MS;
    },
    staleTime: 0,
    gcTime: 0,
  });
  const current: ExportStatus | undefined = progress.data ?? started.data;

  // The dialog says the file is saved in its own body: a toast opens over the dialog's title
  // (issue 25). A file saved after the dialog closed is told by a toast.
  const open = filter !== null;
  const openRef = useRef(open);
  openRef.current = open;
  const [savedName, setSavedName] = useState<string | null>(null);
  useEffect(() => {
    if (!open) setSavedName(null);
  }, [open]);
  const file = useMutation({
    mutationFn: (id: string) => fetchFile(id),
    onSuccess: (name) => {
      if (openRef.current) setSavedName(name);
      else void message.success(t('export.saved', { name }));
    },
  });
  const { mutate: fetchNow } = file;
  useEffect(() => {
    if (current?.status === 'done' && downloaded.current !== current.exportId) {
      downloaded.current = current.exportId;
      fetchNow(current.exportId);
    }
  }, [current, fetchNow]);

  const percent =
    current?.status === 'done'
      ? 100
      : current && current.total > 0
        ? Math.min(99, Math.floor((current.processed / current.total) * 100))
        : 0;
  const failed = started.isError || current?.status === 'failed';

  return (
    <Modal
      open={open}
      title={t('export.title')}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      footer={[
        current?.status === 'done' ? (
          <Button
            key="again"
            onClick={() => file.mutate(current.exportId)}
            loading={file.isPending}
            data-testid={`${testIdPrefix}-download`}
          >
            {t('export.downloadAgain')}
          </Button>
        ) : null,
        <Button key="close" type="primary" onClick={onClose} data-testid={`${testIdPrefix}-close`}>
          {t('export.close')}
        </Button>,
      ]}
    >
      {failed ? (
        <Result status="error" title={t('export.failed')} />
      ) : (
        <div data-testid={`${testIdPrefix}-progress`} data-status={current?.status ?? 'starting'}>
          <Progress percent={percent} status={current?.status === 'done' ? 'success' : 'active'} />
          <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
            {current?.status === 'done'
              ? t('export.done', { count: current.total, name: current.fileName })
              : t('export.running', { processed: current?.processed ?? 0, count: current?.total ?? 0 })}
          </Typography.Paragraph>
          <Typography.Paragraph role="status" data-testid={`${testIdPrefix}-saved`}>
            {savedName ? t('export.saved', { name: savedName }) : null}
          </Typography.Paragraph>
        </div>
      )}
    </Modal>
  );
}

/** The endpoints that take an export's id: its status and its download. */
type ExportIdCall = {
  [N in EndpointName]: Req<Endpoints[N]> extends { exportId: string } ? N : never;
}[EndpointName];

export interface ExportButtonProps<N extends EndpointName> {
  /** The i18n namespace of the button's and dialog's `export.*` texts. */
  ns: string;
  /** The button's data-testid, also the prefix of the dialog's. */
  testId: string;
  /** The export's three calls of the catalogue: it starts, then its status and its file. */
  calls: { start: N; status: ExportIdCall; download: ExportIdCall };
  /**
   * What the export starts with: the list's current request (a list page's `list.request`);
   * its page and size are left out, an export takes the filters and the order.
   */
  request: Req<Endpoints[N]>;
}

/**
 * The Excel export of a list: a button (not for monitor accounts) that starts a background
 * export of the list's current filters and shows its progress until the file downloads.
 */
export function ExportButton<N extends EndpointName>({ ns, testId, calls, request }: ExportButtonProps<N>) {
  const { t } = useTranslation(ns);
  const [exporting, setExporting] = useState<Req<Endpoints[N]> | null>(null);
  const open = () => {
    const { page: _page, size: _size, ...filters } = request as Record<string, unknown>;
    setExporting(filters as Req<Endpoints[N]>);
  };
  return (
    <NotForMonitor>
      <Button icon={<DownloadOutlined />} onClick={open} data-testid={testId}>
        {t('export.button')}
      </Button>
      <ExportDialog
        filter={exporting}
        onClose={() => setExporting(null)}
        ns={ns}
        testIdPrefix={testId}
        start={(f) => call(calls.start, f) as Promise<ExportStatus>}
        status={(exportId) => call(calls.status, { exportId }) as Promise<ExportStatus>}
        fetchFile={(exportId) => download(calls.download, { exportId })}
      />
    </NotForMonitor>
  );
}
