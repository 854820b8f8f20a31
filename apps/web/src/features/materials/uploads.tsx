import { type Material, type MaterialWarning, materialTypeOfName } from '@marquee/protocol';
import { Button, List, Progress, Space, Typography } from 'antd';
import { type ReactNode, useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client';

/** What came of one upload. */
export type UploadOutcome =
  | { kind: 'done'; material: Material; warnings: MaterialWarning[]; duplicate: boolean }
  | { kind: 'error'; message: string };

export interface UploadItem {
  id: number;
  name: string;
  size: number;
  /** 0..100 while sending. */
  percent: number;
  stage: 'signing' | 'sending' | 'verifying' | 'settled' | 'cancelled';
  outcome?: UploadOutcome;
  cancel: () => void;
}

export interface MaterialUploads {
  items: readonly UploadItem[];
  add: (file: File, folderId: string) => void;
  /** Drops the rows of finished and cancelled uploads. */
  clearSettled: () => void;
}

let counter = 0;

/** The message of a failure: the server's (already in the user's language) or the client's own. */
function failureMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.message) return error.message;
  return fallback;
}

/** POSTs the file with the signature's fields to its URL; resolves with the storage's JSON answer. */
function postFile(
  url: string,
  fields: Record<string, string>,
  file: File,
  onProgress: (percent: number) => void,
  register: (abort: () => void) => void,
): Promise<{ code: number; message?: string }> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    if (!Object.keys(fields).some((k) => k.toLowerCase() === 'content-type')) form.append('Content-Type', file.type);
    form.append('file', file);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let body: { code?: number; message?: string } = {};
      try {
        body = JSON.parse(xhr.responseText || '{}');
      } catch {
        // S3 answers 204 with no JSON.
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve({ code: body.code ?? 0, message: body.message });
      else resolve({ code: body.code ?? -1, message: body.message });
    };
    xhr.onerror = () => reject(new Error('network'));
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    register(() => xhr.abort());
    xhr.send(form);
  });
}

/**
 * The library's uploads: apply (the signed policy for the file's folder and type), the POST
 * to storage with its progress (cancellable), then verify (the material, its warnings and
 * duplicates). Several files run at once, each with its own row.
 */
export function useMaterialUploads({ onSettled }: { onSettled?: () => void } = {}): MaterialUploads {
  const { t } = useTranslation('material');
  const [items, setItems] = useState<UploadItem[]>([]);
  const settledRef = useRef(onSettled);
  settledRef.current = onSettled;
  const patch = useCallback((id: number, next: Partial<UploadItem>) => {
    setItems((current) => current.map((it) => (it.id === id ? { ...it, ...next } : it)));
  }, []);

  const add = useCallback(
    (file: File, folderId: string) => {
      counter += 1;
      const id = counter;
      let abort: (() => void) | null = null;
      let cancelled = false;
      const cancel = () => {
        cancelled = true;
        abort?.();
        patch(id, { stage: 'cancelled' });
      };
      setItems((current) => [
        ...current,
        { id, name: file.name, size: file.size, percent: 0, stage: 'signing', cancel },
      ]);
      const type = materialTypeOfName(file.name);
      void (async () => {
        try {
          if (!type) throw new Error(t('check.formatError'));
          const signature = await call(
            'materialUploadApply',
            { folderId, fileName: file.name, size: file.size, contentType: file.type, type },
            { silent: true },
          );
          if (cancelled) return;
          patch(id, { stage: 'sending' });
          const posted = await postFile(
            signature.url,
            signature.fields,
            file,
            (percent) => patch(id, { percent }),
            (a) => {
              abort = a;
            },
          );
          if (cancelled) return;
          if (posted.code !== 0) throw new Error(posted.message || t('upload.failed'));
          patch(id, { stage: 'verifying', percent: 100 });
          const verified = await call('materialUploadVerify', { uploadId: signature.uploadId }, { silent: true });
          const warnings = [...new Set([...signature.warnings, ...verified.warnings])];
          patch(id, {
            stage: 'settled',
            outcome: {
              kind: 'done',
              material: verified.material,
              warnings,
              duplicate: warnings.includes('duplicate') || verified.duplicates.length > 0,
            },
          });
        } catch (error) {
          if (cancelled || (error instanceof DOMException && error.name === 'AbortError')) return;
          patch(id, {
            stage: 'settled',
            outcome: {
              kind: 'error',
              message: failureMessage(error, error instanceof Error ? error.message : t('upload.failed')),
            },
          });
        } finally {
          settledRef.current?.();
        }
      })();
    },
    [patch, t],
  );
  const clearSettled = useCallback(
    () => setItems((current) => current.filter((it) => it.stage !== 'settled' && it.stage !== 'cancelled')),
    [],
  );
  return { items, add, clearSettled };
}

/** The rows of the uploads: name, progress, cancel while running, then the outcome. */
export function UploadProgressList({
  uploads,
  renderOutcome,
}: {
  uploads: MaterialUploads;
  renderOutcome: (outcome: UploadOutcome) => ReactNode;
}) {
  const { t } = useTranslation('material');
  if (uploads.items.length === 0) return null;
  return (
    <List
      size="small"
      className="mq-upload-progress"
      header={<Typography.Text strong>{t('upload.progress')}</Typography.Text>}
      dataSource={uploads.items as UploadItem[]}
      renderItem={(item) => {
        const running = item.stage === 'signing' || item.stage === 'sending' || item.stage === 'verifying';
        return (
          <List.Item
            data-testid={`upload-item-${item.name}`}
            actions={
              running
                ? [
                    <Button key="cancel" size="small" onClick={item.cancel} data-testid={`upload-cancel-${item.name}`}>
                      {t('action.cancel')}
                    </Button>,
                  ]
                : []
            }
          >
            <Space direction="vertical" size={2} style={{ width: '100%' }}>
              <Typography.Text>{item.name}</Typography.Text>
              {item.stage === 'cancelled' ? (
                <Typography.Text type="secondary">{t('upload.cancelled')}</Typography.Text>
              ) : item.outcome ? (
                renderOutcome(item.outcome)
              ) : (
                <Progress
                  percent={item.percent}
                  size="small"
                  status="active"
                  format={(p) => (item.stage === 'verifying' ? t('upload.verifying') : `${p}%`)}
                  data-testid={`upload-progress-${item.name}`}
                />
              )}
            </Space>
          </List.Item>
        );
      }}
    />
  );
}
