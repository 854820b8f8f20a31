import {
  type ErrorCodeValue,
  errorMessage,
  FEEDBACK_MAX_CHARS,
  FEEDBACK_SHOT_MAX_BYTES,
  FEEDBACK_SHOT_TYPES,
  feedbackLength,
} from '@marquee/protocol';
import { ApiError, call } from '../../api/client';
import { postUpload } from '../../components/upload';

/** The storage refused the file (the API client showed nothing: the dialog shows `message`). */
export class StorageRefused extends ApiError {}

/** Why the console refuses a screenshot before asking the server: 'type' or 'size', or null. */
export function shotProblem(file: { type: string; size: number }): 'type' | 'size' | null {
  if (!(FEEDBACK_SHOT_TYPES as readonly string[]).includes(file.type)) return 'type';
  if (file.size > FEEDBACK_SHOT_MAX_BYTES) return 'size';
  return null;
}

/** What the counter under the text shows, and whether the text may be sent (1..500 characters). */
export function feedbackCount(text: string): { used: number; over: boolean; empty: boolean } {
  const used = feedbackLength(text.trim());
  return { used, over: used > FEEDBACK_MAX_CHARS, empty: used === 0 };
}

/** One screenshot into storage through the existing direct upload (feedback.shotApply, then the POST). */
export async function uploadShot(file: File, language: string, onProgress: (percent: number) => void): Promise<string> {
  const signature = await call('feedbackShotApply', { size: file.size, contentType: file.type });
  const answer = await postUpload(
    signature,
    file,
    (loaded) => onProgress(Math.round((loaded * 100) / file.size)),
    language,
  ).answer;
  if (!answer.ok) throw new StorageRefused(answer.code, errorMessage(answer.code as ErrorCodeValue, language));
  onProgress(100);
  return signature.shotId;
}
