import { type ErrorCodeValue, errorMessage, errorMessages, type UploadSignature } from '@marquee/protocol';
import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { postUpload } from './post';
import {
  initialUploadState,
  queueProgress,
  startable,
  type UploadAction,
  type UploadItem,
  type UploadQueueState,
  uploadReducer,
} from './queue';

export interface UploadQueueOptions<T> {
  /** Asks the server for the file's upload signature (e.g. the materials' upload apply). */
  sign: (file: File) => Promise<UploadSignature & { uploadId: string }>;
  /** Registers the stored file (e.g. the materials' upload verify); its answer is the item's result. */
  verify: (uploadId: string) => Promise<T>;
  /** Files uploading at once (default 3). */
  concurrency?: number;
  /** Called once per file that is done. */
  onDone?: (item: UploadItem<File, T>) => void;
}

export interface UploadQueueApi<T> {
  items: UploadItem<File, T>[];
  /** Queues files; they start as room frees up. */
  add(files: Iterable<File> | ArrayLike<File>): void;
  /** Stops a file that is waiting or uploading (nothing is stored). */
  cancel(id: string): void;
  /** Queues a failed or cancelled file again. */
  retry(id: string): void;
  /** Takes a file that is not running off the list. */
  remove(id: string): void;
  clearFinished(): void;
  /** Bytes sent of the files not failed or cancelled. */
  progress: { loaded: number; total: number };
  /** Whether a file is waiting or running. */
  busy: boolean;
}

let counter = 0;
const nextId = () => `up-${Date.now().toString(36)}-${(counter++).toString(36)}`;

interface Running {
  cancelled: boolean;
  abort?: () => void;
}

/**
 * The upload queue (contracts: several files at once, each with progress, cancel and retry):
 * each file is signed (`sign`), POSTed with XMLHttpRequest to the storage the signature names
 * (the server's POST /upload or an S3 bucket), then registered (`verify`). The states are the
 * pure reducer of queue.ts.
 */
export function useUploadQueue<T = unknown>(options: UploadQueueOptions<T>): UploadQueueApi<T> {
  const { i18n, t } = useTranslation('upload');
  const [state, dispatch] = useReducer(
    uploadReducer as (s: UploadQueueState<File, T>, a: UploadAction<File, T>) => UploadQueueState<File, T>,
    undefined,
    () => initialUploadState<File, T>(),
  );
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const running = useRef(new Map<string, Running>());
  const concurrency = options.concurrency ?? 3;

  const run = useCallback(
    async (item: UploadItem<File, T>, attempt: number) => {
      const entry: Running = { cancelled: false };
      running.current.set(item.id, entry);
      const fail = (error: string) => {
        if (!entry.cancelled) dispatch({ type: 'failed', id: item.id, attempt, error });
      };
      try {
        let signature: UploadSignature & { uploadId: string };
        try {
          signature = await optionsRef.current.sign(item.file);
        } catch (error) {
          fail(error instanceof ApiError ? error.message : t('errors:signatureFailed'));
          return;
        }
        if (entry.cancelled) return;
        dispatch({ type: 'signed', id: item.id, attempt });
        const posted = postUpload(
          signature,
          item.file,
          (loaded) => dispatch({ type: 'progress', id: item.id, attempt, loaded }),
          i18n.language,
        );
        entry.abort = posted.abort;
        const answer = await posted.answer;
        if (entry.cancelled) return;
        if (!answer.ok) {
          const known = answer.code in errorMessages;
          fail(known ? errorMessage(answer.code as ErrorCodeValue, i18n.language) : t('errors:uploadFailed'));
          return;
        }
        dispatch({ type: 'sent', id: item.id, attempt });
        try {
          const result = await optionsRef.current.verify(signature.uploadId);
          if (entry.cancelled) return;
          dispatch({ type: 'verified', id: item.id, attempt, result });
          optionsRef.current.onDone?.({ ...item, status: 'done', result, loaded: item.size, attempt });
        } catch (error) {
          fail(error instanceof ApiError ? error.message : t('errors:uploadFailed'));
        }
      } catch (error) {
        if ((error as Error)?.name !== 'AbortError') fail(t('errors:uploadFailed'));
      } finally {
        if (running.current.get(item.id) === entry) running.current.delete(item.id);
      }
    },
    [i18n, t],
  );

  // Start what the queue has room for; `start` is what marks an item running, so a repeated
  // effect (React's development double run) cannot start it twice.
  const started = useRef(new Set<string>());
  useEffect(() => {
    for (const item of startable(state, concurrency)) {
      const attempt = item.attempt + 1;
      const mark = `${item.id}#${attempt}`;
      if (started.current.has(mark)) continue;
      started.current.add(mark);
      dispatch({ type: 'start', id: item.id });
      void run(item, attempt);
    }
  }, [state, concurrency, run]);

  // Leaving the page stops what is still uploading.
  useEffect(() => {
    const map = running.current;
    return () => {
      for (const entry of map.values()) {
        entry.cancelled = true;
        entry.abort?.();
      }
    };
  }, []);

  const add = useCallback((files: Iterable<File> | ArrayLike<File>) => {
    const list = Array.from(files as ArrayLike<File>).map((file) => ({
      id: nextId(),
      file,
      name: file.name,
      size: file.size,
    }));
    if (list.length) dispatch({ type: 'add', files: list });
  }, []);
  const cancel = useCallback((id: string) => {
    const entry = running.current.get(id);
    if (entry) {
      entry.cancelled = true;
      entry.abort?.();
    }
    dispatch({ type: 'cancel', id });
  }, []);
  const retry = useCallback((id: string) => dispatch({ type: 'retry', id }), []);
  const remove = useCallback((id: string) => dispatch({ type: 'remove', id }), []);
  const clearFinished = useCallback(() => dispatch({ type: 'clearFinished' }), []);

  return useMemo(
    () => ({
      items: state.items,
      add,
      cancel,
      retry,
      remove,
      clearFinished,
      progress: queueProgress(state),
      busy: state.items.some((i) => ['queued', 'signing', 'uploading', 'verifying'].includes(i.status)),
    }),
    [state, add, cancel, retry, remove, clearFinished],
  );
}
