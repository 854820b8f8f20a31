import type { LocalizedText } from '../../protocol/appError.js';

/** The messages of the sales inventory (slots, goods, availability, bookings, price contracts, coupons). */
export const InventoryText = {
  slotNotFound: {
    'zh-CN': '广告位不存在或已删除',
    'en-US': 'The ad slot does not exist or was deleted',
    ja: '広告枠が存在しないか、削除されています',
  },
  slotInUse: {
    'zh-CN': '广告位正在使用中（有在售商品或未结束的订单），不能修改售卖方式、轮播次数和投放设备，也不能删除',
    'en-US':
      'The ad slot is in use (goods on sale or orders not over): its sales method, rotations and screens cannot change and it cannot be deleted',
    ja: '広告枠は使用中です（販売中の商品または終了していない注文があります）。販売方式・ローテーション数・デバイスは変更できず、削除もできません',
  },
  fallbackNotUsable: {
    'zh-CN': '兜底广告须为本企业已审核通过的兜底类型广告',
    'en-US': 'The fallback must be an approved fallback ad of your enterprise',
    ja: 'フォールバックは自社の承認済みフォールバック広告である必要があります',
  },
  regionFallbackLayout: {
    'zh-CN': '布局区域只能播放图片和视频：兜底广告不能是布局广告',
    'en-US': 'A layout region plays pictures and videos only: the fallback cannot be a layout ad',
    ja: 'レイアウトの領域では画像と動画のみ再生できます：フォールバックにレイアウト広告は使えません',
  },
  slotTargetsInvalid: {
    'zh-CN': '投放目标无效：设备、分组、标签或拼接屏不属于本企业',
    'en-US': 'Invalid targets: a device, group, tag or split screen is not of your enterprise',
    ja: '配信先が無効です：デバイス、グループ、タグまたはスプライス画面が自社のものではありません',
  },
  slotNoScreens: {
    'zh-CN': '投放目标未覆盖任何已激活的设备',
    'en-US': 'The targets reach no activated device',
    ja: '配信先に有効化済みのデバイスがありません',
  },
  slotRegionInvalid: {
    'zh-CN': '所选布局区域不是该企业布局中标记为 RTB 广告位的组件',
    'en-US': "The chosen region is not a component marked as the RTB slot in one of your enterprise's layouts",
    ja: '選択した領域は、自社レイアウトで RTB 枠としてマークされたコンポーネントではありません',
  },
  goodsNotFound: {
    'zh-CN': '商品不存在或已删除',
    'en-US': 'The goods item does not exist or was deleted',
    ja: '商品が存在しないか、削除されています',
  },
  goodsOnSale: {
    'zh-CN': '商品在售中，请先下架再修改或删除',
    'en-US': 'The goods item is on sale: take it off shelf first',
    ja: '商品は販売中です。先に販売を停止してください',
  },
  goodsExpired: {
    'zh-CN': '商品已过期，不能上架',
    'en-US': 'The goods item has expired and cannot go on sale',
    ja: '商品の期間が終了しているため、販売できません',
  },
  goodsHasOrders: {
    'zh-CN': '商品已有订单，不能删除',
    'en-US': 'The goods item has orders and cannot be deleted',
    ja: '商品には注文があるため、削除できません',
  },
  goodsDevicesInvalid: {
    'zh-CN': '所选设备不在广告位的投放设备中',
    'en-US': "A chosen screen is not one of the slot's screens",
    ja: '選択したデバイスは広告枠の配信デバイスに含まれていません',
  },
  goodsPeriodTooLong: {
    'zh-CN': '商品周期不能超过 366 天',
    'en-US': 'The goods period cannot exceed 366 days',
    ja: '商品の期間は 366 日以内にしてください',
  },
  deviceLongOffline: (name: string, hours: number): LocalizedText => ({
    'zh-CN': `设备「${name}」已离线 ${hours} 小时（超过 72 小时），不可售卖`,
    'en-US': `Device "${name}" has been offline for ${hours} hours (over 72 hours) and cannot be sold`,
    ja: `デバイス「${name}」は ${hours} 時間オフラインです（72 時間超）。販売できません`,
  }),
  timeConflict: (device: string, day: string, hour: number): LocalizedText => {
    const h = `${String(hour).padStart(2, '0')}:00`;
    return {
      'zh-CN': `库存不足：设备「${device}」在 ${day} ${h} 已没有足够的可售轮播`,
      'en-US': `Not enough inventory: device "${device}" has no rotation left for this order on ${day} at ${h}`,
      ja: `在庫が足りません：デバイス「${device}」の ${day} ${h} には十分なローテーションが残っていません`,
    };
  },
  priceContractNotFound: {
    'zh-CN': '价格合同不存在或无权查看',
    'en-US': 'The price contract does not exist or is not visible to you',
    ja: '価格契約が存在しないか、閲覧権限がありません',
  },
  priceContractOverlap: {
    'zh-CN': '该广告主已有启用的价格合同与此有效期重叠',
    'en-US': 'The advertiser already has an enabled price contract overlapping this validity',
    ja: 'この広告主には、この有効期間と重なる有効な価格契約がすでにあります',
  },
  priceContractSigned: {
    'zh-CN': '价格合同的合同文件已签署，不能修改',
    'en-US': 'The price contract’s document is signed: it cannot change',
    ja: '価格契約の契約書は署名済みのため、変更できません',
  },
  priceContractUsed: {
    'zh-CN': '价格合同已被订单使用，不能删除，请停用',
    'en-US': 'Orders used this price contract: disable it instead of deleting it',
    ja: 'この価格契約は注文で使用されているため削除できません。無効にしてください',
  },
  advertiserNotFound: {
    'zh-CN': '广告主不存在或无权查看',
    'en-US': 'The advertiser does not exist or is not visible to you',
    ja: '広告主が存在しないか、閲覧権限がありません',
  },
  slotPriceInvalid: {
    'zh-CN': '协议价中的广告位不存在',
    'en-US': 'A slot of the negotiated prices does not exist',
    ja: '契約価格の広告枠が存在しません',
  },
  couponNotFound: {
    'zh-CN': '优惠券不存在',
    'en-US': 'The coupon does not exist',
    ja: 'クーポンが存在しません',
  },
  couponUnavailable: {
    'zh-CN': '优惠券不可用（已停用、未开始、已过期、已用完或不适用于该商品）',
    'en-US': 'The coupon cannot be used (disabled, not started, expired, used up, or not for these goods)',
    ja: 'クーポンは使用できません（無効、開始前、期限切れ、使い切り、またはこの商品に適用不可）',
  },
  couponDiscountLocked: {
    'zh-CN': '优惠券已被使用，折扣不能修改',
    'en-US': 'The coupon has been used: its discount cannot change',
    ja: 'クーポンは使用済みのため、割引率は変更できません',
  },
  couponLimitBelowUsed: {
    'zh-CN': '发放数量不能小于已使用数量',
    'en-US': 'The limit cannot be below the uses so far',
    ja: '発行数は使用済みの数より少なくできません',
  },
  couponGoodsInvalid: {
    'zh-CN': '适用商品不存在',
    'en-US': 'A goods item it applies to does not exist',
    ja: '適用する商品が存在しません',
  },
} satisfies Record<string, LocalizedText | ((...args: never[]) => LocalizedText)>;
