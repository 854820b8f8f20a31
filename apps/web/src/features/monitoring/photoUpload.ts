import {
  type ErrorCodeValue,
  errorMessage,
  MONITOR_PHOTO_MAX_BYTES,
  MONITOR_PHOTO_TYPES,
  type MonitorPhoto,
} from '@marquee/protocol';
import { ApiError, call } from '../../api/client';
import { postUpload } from '../../components/upload';

/** The storage refused the file (the API client showed nothing: the page shows `message`). */
export class StorageRefused extends ApiError {}

/** The browser's position, when the user allows it within a few seconds; else nothing. */
export function browserPosition(timeoutMs = 8000): Promise<{ latitude: number; longitude: number } | null> {
  if (typeof navigator === 'undefined' || !navigator.geolocation) return Promise.resolve(null);
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ latitude: p.coords.latitude, longitude: p.coords.longitude }),
      () => resolve(null),
      { enableHighAccuracy: true, timeout: timeoutMs, maximumAge: 60_000 },
    );
  });
}

/** Why the console refuses a file before asking the server: 'type' or 'size', or null when it may go. */
export function photoProblem(file: File): 'type' | 'size' | null {
  if (!(MONITOR_PHOTO_TYPES as readonly string[]).includes(file.type)) return 'type';
  if (file.size > MONITOR_PHOTO_MAX_BYTES) return 'size';
  return null;
}

/**
 * One photograph of a task into storage, the existing direct upload: monitoring.photoApply (with
 * the browser's time and, if permitted, its position: used when the picture has no EXIF), the
 * POST to storage, monitoring.photoVerify (the server reads the EXIF, checks the distance to the
 * screen and the schedule). A refusal of the storage throws with its message.
 */
export async function uploadTaskPhoto(
  taskId: string,
  file: File,
  language: string,
  onProgress: (loaded: number) => void = () => {},
): Promise<MonitorPhoto> {
  const position = await browserPosition();
  const signature = await call('monitoringPhotoApply', {
    taskId,
    size: file.size,
    contentType: file.type,
    takenAt: new Date().toISOString(),
    ...(position ?? {}),
  });
  const answer = await postUpload(signature, file, onProgress, language).answer;
  if (!answer.ok) throw new StorageRefused(answer.code, errorMessage(answer.code as ErrorCodeValue, language));
  return await call('monitoringPhotoVerify', { photoId: signature.photoId });
}
