import { ErrorCode } from '@marquee/protocol';
import { describe, expect, it } from 'vitest';
import { readUploadAnswer, uploadForm } from '../src/components/upload/post';
import {
  initialUploadState,
  percentOf,
  queueProgress,
  startable,
  type UploadAction,
  type UploadQueueState,
  uploadReducer,
} from '../src/components/upload/queue';

type F = { name: string };
type S = UploadQueueState<F, string>;
const run = (state: S, ...actions: UploadAction<F, string>[]) => actions.reduce(uploadReducer<F, string>, state);
const files = (...sizes: number[]) => ({
  type: 'add' as const,
  files: sizes.map((size, i) => ({ id: `f${i}`, file: { name: `f${i}` }, name: `f${i}.png`, size })),
});
const statusOf = (state: S) => state.items.map((i) => i.status);

/** The upload queue's state machine (useUploadQueue), as the pure reducer it is. */
describe('upload queue states', () => {
  it('takes several files and starts at most `concurrency` of them, oldest first', () => {
    const s = run(initialUploadState(), files(10, 20, 30, 40));
    expect(statusOf(s)).toEqual(['queued', 'queued', 'queued', 'queued']);
    expect(startable(s, 3).map((i) => i.id)).toEqual(['f0', 'f1', 'f2']);
    const started = run(s, { type: 'start', id: 'f0' }, { type: 'start', id: 'f1' });
    expect(startable(started, 3).map((i) => i.id)).toEqual(['f2']);
    // Adding a known id again changes nothing.
    expect(run(started, files(10))).toBe(started);
  });

  it('walks one file through signing, progress, verifying and done', () => {
    let s = run(initialUploadState(), files(1000), { type: 'start', id: 'f0' });
    expect(s.items[0]).toMatchObject({ status: 'signing', attempt: 1, loaded: 0 });
    s = run(s, { type: 'signed', id: 'f0', attempt: 1 });
    s = run(s, { type: 'progress', id: 'f0', attempt: 1, loaded: 250 });
    expect(percentOf(s.items[0])).toBe(25);
    // Progress never goes back, nor past the size.
    s = run(
      s,
      { type: 'progress', id: 'f0', attempt: 1, loaded: 100 },
      { type: 'progress', id: 'f0', attempt: 1, loaded: 5000 },
    );
    expect(s.items[0].loaded).toBe(1000);
    s = run(s, { type: 'sent', id: 'f0', attempt: 1 });
    expect(s.items[0].status).toBe('verifying');
    s = run(s, { type: 'verified', id: 'f0', attempt: 1, result: 'material-1' });
    expect(s.items[0]).toMatchObject({ status: 'done', result: 'material-1' });
    expect(percentOf(s.items[0])).toBe(100);
    expect(startable(s, 1)).toEqual([]);
  });

  it('fails with the reason, retries as a new attempt and ignores the old attempt', () => {
    let s = run(
      initialUploadState(),
      files(100),
      { type: 'start', id: 'f0' },
      { type: 'signed', id: 'f0', attempt: 1 },
    );
    s = run(s, { type: 'failed', id: 'f0', attempt: 1, error: 'File size limit exceeded' });
    expect(s.items[0]).toMatchObject({ status: 'failed', error: 'File size limit exceeded' });
    s = run(s, { type: 'retry', id: 'f0' });
    expect(s.items[0]).toMatchObject({ status: 'queued', loaded: 0, error: undefined });
    s = run(s, { type: 'start', id: 'f0' });
    expect(s.items[0].attempt).toBe(2);
    // A late event of attempt 1 does nothing.
    const before = s;
    s = run(s, { type: 'signed', id: 'f0', attempt: 1 }, { type: 'failed', id: 'f0', attempt: 1, error: 'late' });
    expect(s).toBe(before);
  });

  it('cancels a waiting or uploading file, not one already stored; cancelled can be retried', () => {
    let s = run(initialUploadState(), files(100, 200, 300));
    s = run(s, { type: 'start', id: 'f1' }, { type: 'signed', id: 'f1', attempt: 1 });
    s = run(
      s,
      { type: 'start', id: 'f2' },
      { type: 'signed', id: 'f2', attempt: 1 },
      { type: 'sent', id: 'f2', attempt: 1 },
    );
    s = run(s, { type: 'cancel', id: 'f0' }, { type: 'cancel', id: 'f1' }, { type: 'cancel', id: 'f2' });
    expect(statusOf(s)).toEqual(['cancelled', 'cancelled', 'verifying']);
    // Progress of the aborted request arriving late is ignored.
    const before = s;
    expect(run(s, { type: 'progress', id: 'f1', attempt: 1, loaded: 50 })).toBe(before);
    s = run(s, { type: 'retry', id: 'f1' });
    expect(statusOf(s)).toEqual(['cancelled', 'queued', 'verifying']);
  });

  it('removes and clears only finished files, and sums the progress of the live ones', () => {
    let s = run(initialUploadState(), files(100, 200, 300, 400));
    s = run(
      s,
      { type: 'start', id: 'f0' },
      { type: 'signed', id: 'f0', attempt: 1 },
      { type: 'progress', id: 'f0', attempt: 1, loaded: 50 },
    );
    s = run(s, { type: 'start', id: 'f1' }, { type: 'failed', id: 'f1', attempt: 1, error: 'x' });
    s = run(
      s,
      { type: 'start', id: 'f2' },
      { type: 'signed', id: 'f2', attempt: 1 },
      { type: 'sent', id: 'f2', attempt: 1 },
    );
    s = run(s, { type: 'verified', id: 'f2', attempt: 1, result: 'm' });
    expect(queueProgress(s)).toEqual({ loaded: 50 + 300, total: 100 + 300 + 400 });
    expect(run(s, { type: 'remove', id: 'f0' })).toBe(s); // running: cancel first
    s = run(s, { type: 'clearFinished' });
    expect(s.items.map((i) => i.id)).toEqual(['f0', 'f3']);
  });
});

describe('direct upload answers and form', () => {
  it('reads the local envelope, an empty S3 answer and S3 XML errors', () => {
    expect(readUploadAnswer(200, '{"code":0,"message":"ok","payload":{"key":"k","size":3}}')).toEqual({
      ok: true,
      payload: { key: 'k', size: 3 },
    });
    expect(readUploadAnswer(413, '{"code":-10042,"message":"x","payload":null}')).toEqual({
      ok: false,
      code: ErrorCode.FILE_TOO_LARGE,
    });
    expect(readUploadAnswer(200, '')).toEqual({ ok: true });
    expect(readUploadAnswer(204, '')).toEqual({ ok: true });
    const xml = (code: string, message = '') =>
      `<?xml version="1.0"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;
    expect(readUploadAnswer(400, xml('EntityTooLarge'))).toEqual({ ok: false, code: ErrorCode.FILE_TOO_LARGE });
    expect(readUploadAnswer(403, xml('AccessDenied', 'Invalid according to Policy: Policy expired.'))).toEqual({
      ok: false,
      code: ErrorCode.UPLOAD_POLICY_EXPIRED,
    });
    expect(readUploadAnswer(403, xml('AccessDenied', 'Invalid according to Policy: Extra input fields'))).toEqual({
      ok: false,
      code: ErrorCode.UPLOAD_POLICY_INVALID,
    });
    expect(readUploadAnswer(502, 'Bad gateway')).toEqual({ ok: false, code: ErrorCode.UPLOAD_FAILED });
  });

  it('sends the signed fields in order, the file type when not signed, then the file', () => {
    const signature = {
      accessId: 'a',
      policy: 'p',
      signature: 's',
      key: 'e/x/materials/1.png',
      callback: '',
      url: '/upload',
      fields: { 'access-id': 'a', policy: 'p', key: 'e/x/materials/1.png', signature: 's' },
      expiresAt: 0,
    };
    const file = new File([new Uint8Array([1, 2, 3])], 'a.png', { type: 'image/png' });
    const form = uploadForm(signature, file);
    expect([...form.keys()]).toEqual(['access-id', 'policy', 'key', 'signature', 'Content-Type', 'file']);
    expect(form.get('Content-Type')).toBe('image/png');
    const pinned = uploadForm({ ...signature, fields: { ...signature.fields, 'Content-Type': 'image/png' } }, file);
    expect(pinned.getAll('Content-Type')).toEqual(['image/png']);
  });
});
