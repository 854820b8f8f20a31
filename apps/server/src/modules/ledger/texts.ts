import type { LocalizedText } from '../../protocol/appError.js';

const text = (zh: string, en: string, ja: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en, ja });

/** The ledger's refusals in the three languages. */
export const LedgerText = {
  invalidAmount: text(
    '无效金额：金额须为大于 0 的整数分',
    'Invalid amount: an amount is a whole number of fen above 0',
    '無効な金額です：金額は 0 より大きい分単位の整数です',
  ),
  badTransferId: text(
    '转账流水号须为 1 至 128 个字符',
    'A transfer id has 1 to 128 characters',
    '振替 ID は 1〜128 文字です',
  ),
  sameAccount: text(
    '转出和转入账户不能相同',
    'The debit and credit accounts must differ',
    '出金口座と入金口座は異なる必要があります',
  ),
  walletNotFound: text(
    '钱包不存在或无权查看',
    'The wallet does not exist or is not accessible',
    'ウォレットが存在しないか、アクセスできません',
  ),
  accountMissing: text('账户不存在', 'The account does not exist', '口座が存在しません'),
  insufficient: text('可用余额不足', 'The available balance is not enough', '利用可能残高が不足しています'),
  idReused: text(
    '该流水号已用于另一笔不同的转账',
    'This transfer id was already used for a different transfer',
    'この振替 ID は別の振替で既に使用されています',
  ),
  pendingMissing: text('冻结记录不存在', 'The hold does not exist', '仮押さえが存在しません'),
  pendingExpired: text(
    '冻结已超时，无法再入账',
    'The hold has timed out and can no longer be posted',
    '仮押さえの期限が切れたため、確定できません',
  ),
  pendingSettled: text(
    '该冻结已入账或已解冻',
    'The hold was already posted or released',
    'この仮押さえは既に確定または解除されています',
  ),
  postAboveHold: text(
    '无效金额：入账金额超过冻结金额',
    'Invalid amount: the posted amount exceeds the hold',
    '無効な金額です：確定額が仮押さえ額を超えています',
  ),
};
