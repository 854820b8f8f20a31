import { SPECIAL_PHOTO_MAX_BYTES, SPECIAL_PHOTO_TYPES } from '@marquee/protocol';
import { call } from '../../api/client';
import { fileProblem, uploadSigned } from '../../components/upload';

/** Why the console refuses a photo before asking the server: 'type' or 'size', or null. */
export function photoProblem(file: { type: string; size: number }): 'type' | 'size' | null {
  return fileProblem(file, SPECIAL_PHOTO_TYPES, SPECIAL_PHOTO_MAX_BYTES);
}

/** One photo into storage through the one direct upload (special.photoApply, then the POST). */
export async function uploadPhoto(
  file: File,
  language: string,
  onProgress: (percent: number) => void,
): Promise<string> {
  const signature = await uploadSigned(
    () => call('specialPhotoApply', { size: file.size, contentType: file.type }),
    file,
    language,
    onProgress,
  );
  return signature.photoId;
}
