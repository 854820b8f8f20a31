import type { LocalizedText } from '../../protocol/appError.js';

const text = (zh: string, en: string, ja: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en, ja });

type Lang = 'zh-CN' | 'en-US' | 'ja';

/** The market module's refusals, titles and letters in the three languages. */
export const MarketText = {
  productNotFound: text('商品不存在或已下架', 'The product does not exist', '商品が存在しません'),
  onSale: text(
    '商品在售中，不能修改价格或类型：请先下架',
    'The product is on sale: take it off shelf before changing its prices or kind',
    '販売中の商品は価格や種類を変更できません。先に販売を停止してください',
  ),
  dataMbRequired: text(
    '流量卡套餐必须填写每月流量（MB）',
    'A data-card package needs its data per month (MB)',
    'データカードのプランには月間データ量（MB）が必要です',
  ),
  offShelf: text(
    '该商品或所选期限当前不在售',
    'This product, or the chosen term, is not on sale',
    'この商品または選択した期間は現在販売されていません',
  ),
  devicesRequired: text(
    '请选择要续费的设备',
    'Choose the devices to license',
    'ライセンスするデバイスを選択してください',
  ),
  cardsRequired: text('请选择流量卡', 'Choose the data cards', 'データカードを選択してください'),
  quantityRequired: text(
    '请填写购买的存储包数量',
    'Enter how many storage packs to buy',
    '購入するストレージパックの数を入力してください',
  ),
  wrongSubjects: text(
    '所选对象与商品类型不符',
    'What was chosen does not fit this kind of product',
    '選択した対象はこの種類の商品に合いません',
  ),
  deviceInvalid: (name: string) =>
    text(
      `设备「${name}」已停用，不能购买点数`,
      `Device "${name}" is disabled: no points can be bought for it`,
      `デバイス「${name}」は無効のため、ポイントを購入できません`,
    ),
  deviceLongOffline: (name: string, hours: number) =>
    text(
      `设备「${name}」已离线 ${hours} 小时（超过 72 小时），不能购买`,
      `Device "${name}" has been offline for ${hours} hours (more than 72): it cannot be bought for`,
      `デバイス「${name}」は ${hours} 時間オフラインです（72 時間超）。購入できません`,
    ),
  cardInvalid: text(
    '所选流量卡不存在、不属于本企业或已注销',
    'A chosen card does not exist, is not of this enterprise, or is cancelled',
    '選択したデータカードが存在しないか、この企業のものでないか、解約済みです',
  ),
  orderNotFound: text(
    '订单不存在或无权查看',
    'The order does not exist or is not accessible',
    '注文が存在しないか、アクセスできません',
  ),
  notCancellable: text(
    '只有未支付（且不在线下转账审核中）的订单可以取消',
    'Only an unpaid order (not one whose offline transfer is under review) can be cancelled',
    '未払い（オフライン振込の審査中でない）注文のみキャンセルできます',
  ),
  itemNotFound: text('续费项目不存在', 'The item does not exist', '項目が存在しません'),
  orderTitle: (product: string, months: number): LocalizedText =>
    text(
      `${product}（${months} 个月）`,
      `${product} (${months} ${months === 1 ? 'month' : 'months'})`,
      `${product}（${months} か月）`,
    ),
  renewalTitle: (product: string, months: number): LocalizedText =>
    text(
      `自动续费：${product}（${months} 个月）`,
      `Auto-renewal: ${product} (${months} ${months === 1 ? 'month' : 'months'})`,
      `自動更新：${product}（${months} か月）`,
    ),
};

/** A size in GB as a pack's name ('200 GB'). */
export const packName = (bytes: number) => `${Math.round(bytes / 1024 ** 3)} GB`;

export const EXPIRING_LETTER: Record<Lang, (count: number, soonest: string, days: number) => string> = {
  'zh-CN': (n, d, days) => `${n} 台设备将在 ${days} 天内到期（最早 ${d}），请到应用市场续费`,
  'en-US': (n, d, days) =>
    `${n} ${n === 1 ? 'device expires' : 'devices expire'} within ${days} days (the first on ${d}): renew in the market`,
  ja: (n, d, days) =>
    `${n} 台のデバイスが ${days} 日以内に期限切れになります（最短 ${d}）。マーケットで更新してください`,
};

export const STORAGE_LETTER: Record<Lang, (used: string, quota: string, percent: number) => string> = {
  'zh-CN': (u, q, p) => `素材存储已用 ${u} / ${q}（${p}%），可在应用市场购买存储包`,
  'en-US': (u, q, p) => `Material storage is ${p}% full (${u} of ${q}): storage packs are in the market`,
  ja: (u, q, p) => `素材ストレージの使用量が ${p}%（${u} / ${q}）です。マーケットでストレージパックを購入できます`,
};

export const RENEWAL_FAILED_LETTER: Record<
  Lang,
  (p: { day: string; insufficientBalance: number; offShelf: number; subjectGone: number }) => string
> = {
  'zh-CN': (p) =>
    `${p.day} 自动续费失败：${[
      p.insufficientBalance ? `${p.insufficientBalance} 项余额不足` : '',
      p.offShelf ? `${p.offShelf} 项商品已下架` : '',
      p.subjectGone ? `${p.subjectGone} 项设备或流量卡已不存在` : '',
    ]
      .filter(Boolean)
      .join('，')}。请充值或到续费管理查看`,
  'en-US': (p) =>
    `Auto-renewal on ${p.day} failed: ${[
      p.insufficientBalance ? `${p.insufficientBalance} for want of balance` : '',
      p.offShelf ? `${p.offShelf} no longer on sale` : '',
      p.subjectGone ? `${p.subjectGone} whose device or card is gone` : '',
    ]
      .filter(Boolean)
      .join(', ')}. Recharge the wallet or see the renewals`,
  ja: (p) =>
    `${p.day} の自動更新に失敗しました：${[
      p.insufficientBalance ? `残高不足 ${p.insufficientBalance} 件` : '',
      p.offShelf ? `販売終了 ${p.offShelf} 件` : '',
      p.subjectGone ? `デバイスまたはデータカードが存在しない ${p.subjectGone} 件` : '',
    ]
      .filter(Boolean)
      .join('、')}。チャージするか、更新履歴を確認してください`,
};
