import type { Locale, MovementCode, PlatformAccount } from '@marquee/protocol';
import type { LocalizedText } from '../../protocol/appError.js';

const text = (zh: string, en: string, ja: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en, ja });

/** The finance centre's refusals in the three languages. */
export const FinanceText = {
  invoiceExceeded: (invoiceable: string) =>
    text(
      `开票金额超过可开票金额（${invoiceable}）`,
      `The invoice amount exceeds what can still be invoiced (${invoiceable})`,
      `インボイスの金額が発行可能額（${invoiceable}）を超えています`,
    ),
  invoiceNotFound: text('发票申请不存在', 'The invoice request does not exist', 'インボイスの申請が存在しません'),
  invoiceDecided: text(
    '该发票申请已处理',
    'This invoice request has already been handled',
    'このインボイスの申請は既に処理されています',
  ),
};

/** The low-balance station letter (computed from the ledger). */
export const LOW_BALANCE_LETTER: Record<Locale, (available: string, threshold: string) => string> = {
  'zh-CN': (a, t) => `您的钱包可用余额 ${a} 已低于 ${t}，请及时充值`,
  'en-US': (a, t) => `Your wallet balance ${a} is below ${t}: top it up to keep paying`,
  ja: (a, t) => `ウォレットの利用可能残高 ${a} が ${t} を下回っています。チャージしてください`,
};

export const localeOf = (language: string): Locale => (language === 'en-US' || language === 'ja' ? language : 'zh-CN');

/** The movement export's sheet and columns. */
export const MOVEMENT_EXPORT_SHEET: Record<Locale, string> = {
  'zh-CN': '资金流水',
  'en-US': 'Wallet movements',
  ja: '入出金明細',
};
export const MOVEMENT_EXPORT_HEADERS: Record<Locale, string[]> = {
  'zh-CN': ['时间', '类型', '关联单据', '对方账户', '收入（元）', '支出（元）', '余额（元）', '冻结（元）', '备注'],
  'en-US': ['Time', 'Kind', 'Cause', 'Counterparty', 'In (CNY)', 'Out (CNY)', 'Balance (CNY)', 'Frozen (CNY)', 'Note'],
  ja: ['日時', '種類', '関連伝票', '相手口座', '入金（元）', '出金（元）', '残高（元）', '凍結（元）', '備考'],
};

export const MOVEMENT_CODE_WORDS: Record<Locale, Record<MovementCode, string>> = {
  'zh-CN': { recharge: '充值', payment: '支付', refund: '退款', hold: '冻结', release: '解冻', correction: '调账' },
  'en-US': {
    recharge: 'Recharge',
    payment: 'Payment',
    refund: 'Refund',
    hold: 'Hold',
    release: 'Release',
    correction: 'Correction',
  },
  ja: {
    recharge: 'チャージ',
    payment: '支払い',
    refund: '返金',
    hold: '凍結',
    release: '凍結解除',
    correction: '訂正',
  },
};

/** The platform's accounts as the export names them (the console translates the key itself). */
export const PLATFORM_ACCOUNT_WORDS: Record<Locale, Record<PlatformAccount, string>> = {
  'zh-CN': {
    revenue: '平台收入',
    clearingWechat: '微信支付清算',
    clearingAlipay: '支付宝清算',
    clearingOffline: '线下转账清算',
    clearingRtb: '程序化竞价 DSP 清算',
    refunds: '退款',
    coupons: '优惠券',
    corrections: '调账',
  },
  'en-US': {
    revenue: 'Platform revenue',
    clearingWechat: 'WeChat Pay clearing',
    clearingAlipay: 'Alipay clearing',
    clearingOffline: 'Bank transfer clearing',
    clearingRtb: 'RTB DSP clearing',
    refunds: 'Refunds',
    coupons: 'Coupons',
    corrections: 'Corrections',
  },
  ja: {
    revenue: 'プラットフォーム収益',
    clearingWechat: 'WeChat Pay 清算',
    clearingAlipay: 'Alipay 清算',
    clearingOffline: '銀行振込清算',
    clearingRtb: 'RTB DSP 清算',
    refunds: '返金',
    coupons: 'クーポン',
    corrections: '訂正',
  },
};
