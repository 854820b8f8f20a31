import {
  type ErrorCodeValue,
  errorMessage,
  type Material,
  type MaterialWarning,
  materialTypeOfName,
} from '@marquee/protocol';
import { useRef } from 'react';
import { ApiError, call } from '../../api/client';
import { postUpload, type UploadQueueApi, useUploadQueue } from '../../components/upload';

/** What the library said of one stored file: the material, its warnings, whether it is a duplicate. */
export interface MaterialUploaded {
  material: Material;
  warnings: MaterialWarning[];
  duplicate: boolean;
}

export interface MaterialUploads {
  queue: UploadQueueApi<MaterialUploaded>;
  /** Queues files for a folder. */
  add: (files: readonly File[], folderId: string) => void;
}

/** Upload apply for one file into a folder: the signed policy, and the warnings apply already knows. */
export async function signMaterialUpload(file: File, folderId: string) {
  const type = materialTypeOfName(file.name);
  // The console offers only files that passed the browser's checks, in a chosen folder.
  if (!type) throw new Error('unchecked file');
  return await call(
    'materialUploadApply',
    { folderId, fileName: file.name, size: file.size, contentType: file.type, type },
    { silent: true },
  );
}

/** Upload verify: the material, every warning (apply's and verify's) and whether it is a duplicate. */
export async function verifyMaterialUpload(uploadId: string, applyWarnings: readonly MaterialWarning[] = []) {
  const verified = await call('materialUploadVerify', { uploadId }, { silent: true });
  const warnings = [...new Set([...applyWarnings, ...verified.warnings])];
  return {
    material: verified.material,
    warnings,
    duplicate: warnings.includes('duplicate') || verified.duplicates.length > 0,
  } satisfies MaterialUploaded;
}

/**
 * One file into the library at once, without a queue (a poster's image saved to a folder):
 * apply, the POST to storage, verify. A refusal of the storage throws with its message.
 */
export async function uploadToLibrary(file: File, folderId: string, language: string): Promise<MaterialUploaded> {
  const signature = await signMaterialUpload(file, folderId);
  const answer = await postUpload(signature, file, () => {}, language).answer;
  if (!answer.ok) throw new ApiError(answer.code, errorMessage(answer.code as ErrorCodeValue, language));
  return await verifyMaterialUpload(signature.uploadId, signature.warnings);
}

/**
 * The library's uploads on the console's one upload queue (components/upload): sign is the
 * upload apply (the signed policy for the file's folder and type), then the POST to storage
 * with its progress (cancellable, retried on demand), then verify (the material, its warnings
 * and duplicates). Three files run at once.
 */
export function useMaterialUploads({ onSettled }: { onSettled?: () => void } = {}): MaterialUploads {
  const folders = useRef(new WeakMap<File, string>());
  const applyWarnings = useRef(new Map<string, MaterialWarning[]>());
  const queue = useUploadQueue<MaterialUploaded>({
    sign: async (file) => {
      const folderId = folders.current.get(file);
      if (!folderId) throw new Error('no folder');
      const signature = await signMaterialUpload(file, folderId);
      applyWarnings.current.set(signature.uploadId, signature.warnings);
      return signature;
    },
    verify: async (uploadId) => {
      const result = await verifyMaterialUpload(uploadId, applyWarnings.current.get(uploadId));
      applyWarnings.current.delete(uploadId);
      return result;
    },
    onDone: () => onSettled?.(),
  });
  const add = (files: readonly File[], folderId: string) => {
    for (const file of files) folders.current.set(file, folderId);
    queue.add(files);
  };
  return { queue, add };
}
