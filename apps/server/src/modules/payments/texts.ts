import type { LocalizedText } from '../../protocol/appError.js';

const text = (zh: string, en: string, ja: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en, ja });

/** The payments module's titles and refusals in the three languages. */
export const PaymentText = {
  rechargeTitle: text('钱包充值', 'Wallet recharge', 'ウォレットへのチャージ'),
  orderNotFound: text(
    '支付订单不存在或无权查看',
    'The payment order does not exist or is not accessible',
    '支払い注文が存在しないか、アクセスできません',
  ),
  enterpriseNotFound: text('企业不存在', 'The enterprise does not exist', '企業が存在しません'),
  walletNotRechargeable: text(
    '该账户不能充值',
    'This account cannot be recharged',
    'このアカウントにはチャージできません',
  ),
  notPayable: text(
    '该订单已支付、已关闭或正在审核，当前不能支付',
    'This order is paid, closed or under review: it cannot be paid now',
    'この注文は支払い済み、クローズ済み、または審査中のため、現在は支払えません',
  ),
  rechargeByBalance: text(
    '充值订单不能用余额支付',
    'A recharge cannot be paid from the balance',
    'チャージは残高で支払えません',
  ),
  notClosable: text(
    '只有未支付的订单可以关闭',
    'Only an unpaid order can be closed',
    'クローズできるのは未払いの注文だけです',
  ),
  billClosedByPlatform: text(
    '账单只能由平台财务关闭',
    'Only the platform’s finance can close a bill',
    '請求をクローズできるのはプラットフォームの財務担当だけです',
  ),
  voucherMissing: text(
    '转账凭证不存在或未上传完成，请重新上传',
    'A transfer voucher is missing or was not fully uploaded. Upload it again',
    '振込証憑が見つからないか、アップロードが完了していません。もう一度アップロードしてください',
  ),
  offlineNotFound: text(
    '线下支付记录不存在或无权查看',
    'The offline payment does not exist or is not accessible',
    'オフライン支払いの記録が存在しないか、アクセスできません',
  ),
  offlineReviewed: text(
    '该线下支付已审核过',
    'This offline payment has already been reviewed',
    'このオフライン支払いは審査済みです',
  ),
};
