/**
 * The material library's rules (spec sections 5 and 9, issue 10): upload limits by type,
 * the warnings, folder depth, the per-enterprise storage quota. Every limit is one named
 * constant here, read by the console (checks before an upload) and the server (enforced on
 * apply and again on verify, judged from the stored file's content).
 *
 * Decision on video: the spec gives "15 s suggestion and 20M" for video and a warning for a
 * video over 200M, so 20M / 15 s is the recommendation (a warning past it), 200M a stronger
 * warning, and the hard limit is the largest file the library takes (VIDEO_MAX_BYTES).
 */

const MB = 1024 * 1024;
const GB = 1024 * MB;

/** The kinds of material: five uploaded, two by URL (web page, live stream). */
export const MATERIAL_TYPES = ['image', 'video', 'audio', 'document', 'archive', 'web', 'stream'] as const;
export type MaterialType = (typeof MATERIAL_TYPES)[number];
/** The kinds that are uploaded files. */
export const MATERIAL_FILE_TYPES = ['image', 'video', 'audio', 'document', 'archive'] as const;
export type MaterialFileType = (typeof MATERIAL_FILE_TYPES)[number];
/** The kinds added by URL (spec section 7 'media add'). */
export const MATERIAL_MEDIA_TYPES = ['web', 'stream'] as const;
export type MaterialMediaType = (typeof MATERIAL_MEDIA_TYPES)[number];

/** processing: stored, being probed; ready: usable; invalid: probing failed ('invalid material'). */
export const MATERIAL_STATUSES = ['processing', 'ready', 'invalid'] as const;
export type MaterialStatus = (typeof MATERIAL_STATUSES)[number];

/** Spec section 5: image up to 10M. */
export const IMAGE_MAX_BYTES = 10 * MB;
/** Spec section 5: a warning for an image over 5M. */
export const IMAGE_WARN_BYTES = 5 * MB;
/** Spec section 5: a warning for a resolution over 4096*2160 (either side, either orientation). */
export const RESOLUTION_WARN_WIDTH = 4096;
export const RESOLUTION_WARN_HEIGHT = 2160;
/** Spec section 5: the suggested video: at most 20M and 15 s (a warning past either). */
export const VIDEO_SUGGESTED_BYTES = 20 * MB;
export const VIDEO_SUGGESTED_SECONDS = 15;
/** Spec section 5: a warning for a video over 200M. */
export const VIDEO_WARN_BYTES = 200 * MB;
/** The largest video the library takes (see the module comment). */
export const VIDEO_MAX_BYTES = 2 * GB;
/** Spec section 5: audio up to 50M. */
export const AUDIO_MAX_BYTES = 50 * MB;
/** Spec section 5: archive up to 2G. */
export const ARCHIVE_MAX_BYTES = 2 * GB;
/** Spec section 5: document up to 80M. */
export const DOCUMENT_MAX_BYTES = 80 * MB;

/** The hard size limit of each uploaded type ('file size limit exceeded' past it). */
export const MATERIAL_MAX_BYTES: Readonly<Record<MaterialFileType, number>> = {
  image: IMAGE_MAX_BYTES,
  video: VIDEO_MAX_BYTES,
  audio: AUDIO_MAX_BYTES,
  document: DOCUMENT_MAX_BYTES,
  archive: ARCHIVE_MAX_BYTES,
};

/**
 * The content types a declared type's upload policy accepts (exact, or a prefix ending in
 * '/'). The policy only screens what the browser claims; the server judges the stored bytes
 * (MATERIAL_FORMATS) and refuses a file whose content is not of its declared type.
 */
export const MATERIAL_CONTENT_TYPES: Readonly<Record<MaterialFileType, readonly string[]>> = {
  image: ['image/'],
  video: ['video/'],
  audio: ['audio/'],
  document: [
    'application/pdf',
    'application/msword',
    'application/vnd.ms-excel',
    'application/vnd.ms-powerpoint',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    'application/octet-stream',
  ],
  archive: [
    'application/zip',
    'application/x-zip-compressed',
    'application/x-rar-compressed',
    'application/vnd.rar',
    'application/x-7z-compressed',
    'application/gzip',
    'application/x-gzip',
    'application/x-tar',
    'application/octet-stream',
  ],
};

/**
 * The formats the library accepts, by the type judged from the file's first bytes (never
 * its name): the file extensions the console's picker offers for each type.
 */
export const MATERIAL_FORMATS: Readonly<Record<MaterialFileType, readonly string[]>> = {
  image: ['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp'],
  video: ['mp4', 'mov', 'webm', 'mkv', 'avi'],
  audio: ['mp3', 'wav', 'ogg', 'aac', 'm4a', 'flac'],
  document: ['pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx'],
  archive: ['zip', 'rar', '7z', 'gz', 'tar'],
};

/** The declared type of a file name's extension (the console's guess before upload), or null. */
export function materialTypeOfName(name: string): MaterialFileType | null {
  const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  for (const type of MATERIAL_FILE_TYPES) if (MATERIAL_FORMATS[type].includes(ext)) return type;
  return null;
}

/**
 * Warnings an upload may carry (spec section 5); none refuses the upload:
 * - imageLarge: an image over IMAGE_WARN_BYTES;
 * - resolutionLarge: wider or higher than 4096*2160 (either orientation);
 * - videoOverSuggested: a video over 20M or 15 s;
 * - videoLarge: a video over 200M;
 * - duplicate: the enterprise already has a material with the same content (sha256).
 */
export const MATERIAL_WARNINGS = [
  'imageLarge',
  'resolutionLarge',
  'videoOverSuggested',
  'videoLarge',
  'duplicate',
] as const;
export type MaterialWarning = (typeof MATERIAL_WARNINGS)[number];

/** The warnings that follow from a size and a type alone (known before the upload). */
export function sizeWarnings(type: MaterialFileType, size: number): MaterialWarning[] {
  const out: MaterialWarning[] = [];
  if (type === 'image' && size > IMAGE_WARN_BYTES) out.push('imageLarge');
  if (type === 'video' && size > VIDEO_SUGGESTED_BYTES) out.push('videoOverSuggested');
  if (type === 'video' && size > VIDEO_WARN_BYTES) out.push('videoLarge');
  return out;
}

/** Whether a resolution is over the spec's 4096*2160 (a portrait 2160*4096 screen is fine). */
export function resolutionTooLarge(width: number, height: number): boolean {
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  return long > RESOLUTION_WARN_WIDTH || short > RESOLUTION_WARN_HEIGHT;
}

/** The size limit check of an upload: null when it is within the type's limit. */
export function sizeLimitExceeded(type: MaterialFileType, size: number): boolean {
  return size > MATERIAL_MAX_BYTES[type];
}

/** Folder levels: a top-level folder is level 1; 'too many directory levels' past this. */
export const MATERIAL_FOLDER_MAX_DEPTH = 5;
/** Spec section 5: at most 20 materials per release (an ad, a layout's playlist...). */
export const MAX_MATERIALS_PER_RELEASE = 20;
/** A material's display name. */
export const MATERIAL_NAME_MAX = 100;
export const MATERIAL_CATEGORY_NAME_MAX = 20;
/** A web page or live-stream URL. */
export const MATERIAL_URL_MAX = 2000;
/** The live-stream URL schemes accepted (players play HLS/DASH over http(s), RTMP/RTSP natively). */
export const STREAM_URL_SCHEMES = ['http:', 'https:', 'rtmp:', 'rtmps:', 'rtsp:'] as const;
/** Web pages: http(s) only. */
export const WEB_URL_SCHEMES = ['http:', 'https:'] as const;

/** The storage quota of an enterprise without storage packs. */
export const DEFAULT_STORAGE_QUOTA_BYTES = 10 * GB;
/** Spec section 9: one storage pack of the market adds 200 G. */
export const STORAGE_PACK_BYTES = 200 * GB;
/** An upload slot not verified within this long is pruned (its object deleted). */
export const MATERIAL_UPLOAD_TTL_SEC = 2 * 3600;
/** Most materials one batch call names. */
export const MAX_MATERIAL_BATCH = 200;
/**
 * The material list's total is counted up to this many rows; beyond it the answer says
 * `totalCapped` and the console shows "more than 1,000" (an exact count over a million
 * materials would cost more than the page; the device list stops at the same number).
 */
export const MATERIAL_LIST_COUNT_CAP = 1_000;
/** The thumbnail's longer side (px). */
export const MATERIAL_THUMB_SIZE = 320;

/**
 * Whether `url` is an acceptable web page (web) or live-stream (stream) address: an absolute
 * URL of an accepted scheme with a host and no credentials, without spaces or control characters.
 */
export function mediaUrlValid(type: MaterialMediaType, url: string): boolean {
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#\s@]+)([/?#]\S*)?$/i.exec(url);
  if (!match || [...url].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127)) return false;
  const schemes: readonly string[] = type === 'web' ? WEB_URL_SCHEMES : STREAM_URL_SCHEMES;
  if (!schemes.includes(`${match[1].toLowerCase()}:`)) return false;
  const host = match[2].replace(/:\d{1,5}$/, '');
  return /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)$/i.test(host);
}
