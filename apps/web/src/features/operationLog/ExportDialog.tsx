import type { ExportStatus, OperationLogFilter } from '@marquee/protocol';
import { useMutation, useQuery } from '@tanstack/react-query';
import { App, Button, Modal, Progress, Result, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { call, download } from '../../api/client';

const POLL_MS = 500;

/**
 * The export's progress: opening it (a filter given) starts a background export, polls its
 * status and shows the share of rows written; when the file is ready it is downloaded under
 * the server's file name, and can be downloaded again from the dialog.
 */
export function ExportDialog({ filter, onClose }: { filter: OperationLogFilter | null; onClose: () => void }) {
  const { t } = useTranslation('operationLog');
  const { message } = App.useApp();
  const start = useMutation({ mutationFn: (f: OperationLogFilter) => call('operationLogExportStart', f) });
  const exportId = start.data?.exportId;
  const downloaded = useRef<string | null>(null);
  const { mutate: startExport, reset: resetStart } = start;

  // One export per opening (StrictMode runs effects twice in development).
  const startedFor = useRef<OperationLogFilter | null>(null);
  useEffect(() => {
    if (filter && startedFor.current !== filter) {
      startedFor.current = filter;
      startExport(filter);
    } else if (!filter) {
      startedFor.current = null;
      resetStart();
    }
  }, [filter, startExport, resetStart]);

  const status = useQuery({
    queryKey: ['operationLog.exportStatus', exportId],
    queryFn: () => call('operationLogExportStatus', { exportId: exportId as string }),
    enabled: Boolean(exportId),
    refetchInterval: (q) => {
      const s = (q.state.data as ExportStatus | undefined)?.status;
      return s === 'done' || s === 'failed' ? false : POLL_MS;
    },
    staleTime: 0,
    gcTime: 0,
  });
  const current: ExportStatus | undefined = status.data ?? start.data;

  const fetchFile = useMutation({
    mutationFn: (id: string) => download('operationLogExportDownload', { exportId: id }),
    onSuccess: (name) => void message.success(t('export.saved', { name })),
  });
  const { mutate: fetchNow } = fetchFile;
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
  const failed = start.isError || current?.status === 'failed';

  return (
    <Modal
      open={filter !== null}
      title={t('export.title')}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      footer={[
        current?.status === 'done' ? (
          <Button
            key="again"
            onClick={() => fetchFile.mutate(current.exportId)}
            loading={fetchFile.isPending}
            data-testid="oplog-export-download"
          >
            {t('export.downloadAgain')}
          </Button>
        ) : null,
        <Button key="close" type="primary" onClick={onClose} data-testid="oplog-export-close">
          {t('export.close')}
        </Button>,
      ]}
    >
      {failed ? (
        <Result status="error" title={t('export.failed')} />
      ) : (
        <div data-testid="oplog-export-progress" data-status={current?.status ?? 'starting'}>
          <Progress percent={percent} status={current?.status === 'done' ? 'success' : 'active'} />
          <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
            {current?.status === 'done'
              ? t('export.done', { count: current.total, name: current.fileName })
              : t('export.running', { processed: current?.processed ?? 0, count: current?.total ?? 0 })}
          </Typography.Paragraph>
        </div>
      )}
    </Modal>
  );
}
