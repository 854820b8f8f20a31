import { MONITOR_PHOTO_MAX_BYTES, MONITOR_PHOTO_TYPES, type MonitorPhoto } from '@marquee/protocol';
import { call } from '../../api/client';
import { fileProblem, uploadSigned } from '../../components/upload';

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
  return fileProblem(file, MONITOR_PHOTO_TYPES, MONITOR_PHOTO_MAX_BYTES);
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
  onProgress: (percent: number) => void = () => {},
): Promise<MonitorPhoto> {
  const position = await browserPosition();
  const signature = await uploadSigned(
    () =>
      call('monitoringPhotoApply', {
        taskId,
        size: file.size,
        contentType: file.type,
        takenAt: new Date().toISOString(),
        ...(position ?? {}),
      }),
    file,
    language,
    onProgress,
  );
  return await call('monitoringPhotoVerify', { photoId: signature.photoId });
}
