import type { LocalizedText } from '../../protocol/appError.js';

const text = (zh: string, en: string, ja: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en, ja });

/** The RTB module's refusals in the three languages. */
export const RtbText = {
  campaignNotFound: text(
    '竞价活动不存在或无权查看',
    'The RTB campaign does not exist or is not visible to you',
    'RTB キャンペーンが存在しないか、閲覧権限がありません',
  ),
  campaignEnded: text('该竞价活动已结束', 'The RTB campaign has ended', 'この RTB キャンペーンは終了しています'),
  periodOver: text(
    '投放期已结束，无法再创建或修改',
    'The period is over: it can no longer be created or changed',
    '期間が終了しているため、作成・変更できません',
  ),
  budgetBelowCommitted: text(
    '总预算不能低于已花费与已中标待验证金额之和',
    'The total budget cannot be lower than what is spent plus what is reserved for won turns',
    '総予算は消化済み額と落札済み（検証待ち）額の合計を下回れません',
  ),
  targetsInvalid: text(
    '投放目标无效：设备、分组、标签或地区不属于本企业',
    'Invalid targets: a device, group, tag or region is not of your enterprise',
    '配信先が無効です：デバイス、グループ、タグまたは地域が自社のものではありません',
  ),
  dspNotFound: text('DSP 不存在', 'The DSP does not exist', 'DSP が存在しません'),
  auctionNotFound: text('竞价记录不存在', 'The auction does not exist', 'オークション記録が存在しません'),
  adNotUsable: text(
    '活动广告须使用该广告主素材库中可用的素材或布局',
    "The campaign's ad needs ready materials or a layout of the advertiser's library",
    'キャンペーン広告には、広告主のライブラリにある利用可能な素材またはレイアウトが必要です',
  ),
};
