import {
  IMAGE_WARN_BYTES,
  MATERIAL_FILE_TYPES,
  MATERIAL_FORMATS,
  MATERIAL_MAX_BYTES,
  type MaterialFileType,
  type MaterialType,
  type MaterialWarning,
  materialTypeOfName,
  RESOLUTION_WARN_HEIGHT,
  RESOLUTION_WARN_WIDTH,
  resolutionTooLarge,
  sizeWarnings,
  VIDEO_SUGGESTED_BYTES,
  VIDEO_SUGGESTED_SECONDS,
  VIDEO_WARN_BYTES,
} from '@marquee/protocol';

/**
 * The console's checks of a file before it is uploaded (spec section 5), on the protocol's
 * named limits (materialRules.ts), the same the server enforces: the file's type from its
 * name's extension (the picker offers the library's formats only), the type's size limit (a
 * refusal: 'file size limit exceeded'), and the warnings (image over 5M, resolution over
 * 4096*2160, video over 20M or 15 s, video over 200M). The server judges the content again
 * ('file format error'); these checks only spare the user a pointless upload. Pure.
 */

/** The file input's accept list: every format the library takes. */
export const ACCEPT = MATERIAL_FILE_TYPES.flatMap((type) => MATERIAL_FORMATS[type].map((e) => `.${e}`)).join(',');

/** What the browser could read of a file's media before the upload (absent when it could not). */
export interface MediaFacts {
  width?: number;
  height?: number;
  duration?: number;
}

export type CheckError = { key: 'formatError' } | { key: 'tooLarge'; max: number };

export interface FileCheck {
  type: MaterialFileType | null;
  /** A refusal: the file is not uploaded. */
  error?: CheckError;
  /** Advice: the upload goes ahead. */
  warnings: MaterialWarning[];
}

/** The checks of one file, with the media facts the browser read. */
export function checkFile(file: { name: string; size: number }, facts: MediaFacts = {}): FileCheck {
  const type = materialTypeOfName(file.name);
  if (!type) return { type, error: { key: 'formatError' }, warnings: [] };
  const max = MATERIAL_MAX_BYTES[type];
  if (file.size > max) return { type, error: { key: 'tooLarge', max }, warnings: [] };
  const warnings = sizeWarnings(type, file.size);
  if (
    (type === 'image' || type === 'video') &&
    facts.width !== undefined &&
    facts.height !== undefined &&
    resolutionTooLarge(facts.width, facts.height)
  ) {
    warnings.push('resolutionLarge');
  }
  if (
    type === 'video' &&
    facts.duration !== undefined &&
    facts.duration > VIDEO_SUGGESTED_SECONDS &&
    !warnings.includes('videoOverSuggested')
  ) {
    warnings.push('videoOverSuggested');
  }
  return { type, warnings };
}

/** The values the warnings' texts name (limits in bytes and seconds). */
export const WARNING_VALUES = {
  imageBytes: IMAGE_WARN_BYTES,
  videoBytes: VIDEO_WARN_BYTES,
  videoSuggestedBytes: VIDEO_SUGGESTED_BYTES,
  videoSeconds: VIDEO_SUGGESTED_SECONDS,
  width: RESOLUTION_WARN_WIDTH,
  height: RESOLUTION_WARN_HEIGHT,
};

/** A duration in seconds as m:ss or h:mm:ss (the grid's badge). */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '';
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** What the preview dialog can show for a material. */
export type PreviewKind = 'image' | 'video' | 'audio' | 'pdf' | 'web' | 'none';

export function previewKind(row: { type: MaterialType; name: string; mime?: string | null }): PreviewKind {
  if (row.type === 'image' || row.type === 'video' || row.type === 'audio') return row.type;
  if (row.type === 'document') return row.mime === 'application/pdf' || /\.pdf$/i.test(row.name) ? 'pdf' : 'none';
  if (row.type === 'web') return 'web';
  return 'none';
}
