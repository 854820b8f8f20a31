import { type Material, type MaterialWarning, materialTypeOfName } from '@marquee/protocol';
import { useRef } from 'react';
import { call } from '../../api/client';
import { type UploadQueueApi, useUploadQueue } from '../../components/upload';

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
      const type = materialTypeOfName(file.name);
      // The dialog queues only files that passed the browser's checks, in a chosen folder.
      if (!folderId || !type) throw new Error('unchecked file');
      const signature = await call(
        'materialUploadApply',
        { folderId, fileName: file.name, size: file.size, contentType: file.type, type },
        { silent: true },
      );
      applyWarnings.current.set(signature.uploadId, signature.warnings);
      return signature;
    },
    verify: async (uploadId) => {
      const verified = await call('materialUploadVerify', { uploadId }, { silent: true });
      const warnings = [...new Set([...(applyWarnings.current.get(uploadId) ?? []), ...verified.warnings])];
      applyWarnings.current.delete(uploadId);
      return {
        material: verified.material,
        warnings,
        duplicate: warnings.includes('duplicate') || verified.duplicates.length > 0,
      };
    },
    onDone: () => onSettled?.(),
  });
  const add = (files: readonly File[], folderId: string) => {
    for (const file of files) folders.current.set(file, folderId);
    queue.add(files);
  };
  return { queue, add };
}
