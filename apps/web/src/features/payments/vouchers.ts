import { type ErrorCodeValue, errorMessage, type VOUCHER_TYPES } from '@marquee/protocol';
import { call } from '../../api/client';
import { postUpload } from '../../components/upload';

/** The storage refused a voucher's upload (its message in the console's language; not toasted yet). */
export class VoucherUploadError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.name = 'VoucherUploadError';
    this.code = code;
  }
}

/**
 * Uploads one voucher of an order's bank transfer: payment.voucherApply (the signed form for
 * this file), then the POST to storage; answers the voucher's id for payment.offlineSubmit.
 * A refusal of the storage throws a VoucherUploadError with its message in the console's language.
 */
export async function uploadVoucher(
  orderId: string,
  file: File,
  language: string,
  onProgress: (loaded: number) => void = () => {},
): Promise<string> {
  const signature = await call('paymentVoucherApply', {
    orderId,
    fileName: file.name.slice(-120) || 'voucher',
    contentType: file.type as (typeof VOUCHER_TYPES)[number],
    size: file.size,
  });
  const answer = await postUpload(signature, file, onProgress, language).answer;
  if (!answer.ok) throw new VoucherUploadError(answer.code, errorMessage(answer.code as ErrorCodeValue, language));
  return signature.voucherId;
}
