import { FEEDBACK_MAX_CHARS, FEEDBACK_SHOT_MAX_BYTES, FEEDBACK_SHOT_TYPES, feedbackLength } from '@marquee/protocol';
import { call } from '../../api/client';
import { fileProblem, uploadSigned } from '../../components/upload';

/** Why the console refuses a screenshot before asking the server: 'type' or 'size', or null. */
export function shotProblem(file: { type: string; size: number }): 'type' | 'size' | null {
  return fileProblem(file, FEEDBACK_SHOT_TYPES, FEEDBACK_SHOT_MAX_BYTES);
}

/** What the counter under the text shows, and whether the text may be sent (1..500 characters). */
export function feedbackCount(text: string): { used: number; over: boolean; empty: boolean } {
  const used = feedbackLength(text.trim());
  return { used, over: used > FEEDBACK_MAX_CHARS, empty: used === 0 };
}

/** One screenshot into storage through the existing direct upload (feedback.shotApply, then the POST). */
export async function uploadShot(file: File, language: string, onProgress: (percent: number) => void): Promise<string> {
  const signature = await uploadSigned(
    () => call('feedbackShotApply', { size: file.size, contentType: file.type }),
    file,
    language,
    onProgress,
  );
  return signature.shotId;
}
