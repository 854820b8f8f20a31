import { type ErrorCodeValue, errorMessage, SPECIAL_PHOTO_MAX_BYTES, SPECIAL_PHOTO_TYPES } from '@marquee/protocol';
import { ApiError, call } from '../../api/client';
import { postUpload } from '../../components/upload';

/** The storage refused the file (the API client showed nothing: the dialog shows `message`). */
export class StorageRefused extends ApiError {}

/** Why the console refuses a photo before asking the server: 'type' or 'size', or null. */
export function photoProblem(file: { type: string; size: number }): 'type' | 'size' | null {
  if (!(SPECIAL_PHOTO_TYPES as readonly string[]).includes(file.type)) return 'type';
  if (file.size > SPECIAL_PHOTO_MAX_BYTES) return 'size';
  return null;
}

/** One photo into storage through the one direct upload (special.photoApply, then the POST). */
export async function uploadPhoto(
  file: File,
  language: string,
  onProgress: (percent: number) => void,
): Promise<string> {
  const signature = await call('specialPhotoApply', { size: file.size, contentType: file.type });
  const answer = await postUpload(
    signature,
    file,
    (loaded) => onProgress(Math.round((loaded * 100) / file.size)),
    language,
  ).answer;
  if (!answer.ok) throw new StorageRefused(answer.code, errorMessage(answer.code as ErrorCodeValue, language));
  onProgress(100);
  return signature.photoId;
}
