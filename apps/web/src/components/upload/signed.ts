import { type ErrorCodeValue, errorMessage, type UploadSignature } from '@marquee/protocol';
import { ApiError } from '../../api/client';
import { postUpload } from './post';

/** The storage refused the file (the API client showed nothing: the caller shows `message`). */
export class StorageRefused extends ApiError {}

/** Why the console refuses a file before asking the server: its type is not one of `types`, or it is over `maxBytes`. */
export function fileProblem(
  file: { type: string; size: number },
  types: readonly string[],
  maxBytes: number,
): 'type' | 'size' | null {
  if (!types.includes(file.type)) return 'type';
  if (file.size > maxBytes) return 'size';
  return null;
}

/**
 * One file into storage through the direct upload (feedback screenshots, special resources'
 * photos, monitors' photographs, help pictures): `sign` asks the server for its signature,
 * then the POST to storage. Progress in percent. A refusal of the storage throws
 * StorageRefused with its message; the server's refusals the API client has shown.
 */
export async function uploadSigned<S extends UploadSignature>(
  sign: () => Promise<S>,
  file: File,
  language: string,
  onProgress: (percent: number) => void = () => {},
): Promise<S> {
  const signature = await sign();
  const answer = await postUpload(
    signature,
    file,
    (loaded) => onProgress(Math.round((loaded * 100) / Math.max(1, file.size))),
    language,
  ).answer;
  if (!answer.ok) throw new StorageRefused(answer.code, errorMessage(answer.code as ErrorCodeValue, language));
  onProgress(100);
  return signature;
}
