import { UPGRADE_MAX_BYTES, type UpgradeKind, type UpgradePackageRow } from '@marquee/protocol';
import { call } from '../../api/client';
import { fileProblem, uploadSigned } from '../../components/upload';

/** What the console sends of a package beside its file. */
export interface PackageFields {
  kind: UpgradeKind;
  version: string;
  deviceType: string;
  notes: string;
}

/**
 * Why the console refuses a package file before asking the server: empty ('empty'), or over
 * 2 GiB ('size'). Any type goes (an .apk, a .bin, a .zip): the server stores it as a binary.
 */
export function packageProblem(file: { size: number }): 'empty' | 'size' | null {
  if (file.size < 1) return 'empty';
  return fileProblem(
    { type: 'application/octet-stream', size: file.size },
    ['application/octet-stream'],
    UPGRADE_MAX_BYTES,
  )
    ? 'size'
    : null;
}

/**
 * One package into storage and verified: upgrade.packageApply signs the direct upload, the
 * file goes through the one signed upload (progress in percent), then upgrade.packageVerify
 * has the server read it back and compute its size and SHA-256 (the row it answers).
 */
export async function uploadPackage(
  fields: PackageFields,
  file: File,
  language: string,
  onProgress: (percent: number) => void,
): Promise<UpgradePackageRow> {
  const signature = await uploadSigned(
    () =>
      call('upgradePackageApply', {
        ...fields,
        fileName: file.name.slice(0, 255) || 'package.bin',
        size: file.size,
      }),
    // The server signs the upload as a binary: the file part says so whatever the browser
    // thinks an .apk or a .bin is (a part of another type is refused as not what was signed).
    new File([file], file.name, { type: 'application/octet-stream' }),
    language,
    onProgress,
  );
  return call('upgradePackageVerify', { id: signature.packageId });
}
