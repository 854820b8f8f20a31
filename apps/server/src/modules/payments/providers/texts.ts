import type { LocalizedText } from '../../../protocol/appError.js';

const text = (zh: string, en: string, ja: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en, ja });

/** The provider payments' refusals in the three languages. */
export const ProviderText = {
  notConfigured: (settings: readonly string[]) =>
    text(
      `该支付方式未启用：服务器需配置 ${settings.join('、')}`,
      `This payment method is not enabled: the server needs ${settings.join(', ')}`,
      `この支払方法は有効になっていません。サーバーに ${settings.join('、')} の設定が必要です`,
    ),
  expired: text(
    '订单已过支付期限，请重新发起充值',
    'The order’s time to pay has run out: start a new recharge',
    '注文の支払期限が過ぎました。もう一度チャージしてください',
  ),
  paidMeanwhile: text(
    '订单已通过之前发起的支付完成，无需再次支付',
    'The order was paid by the payment started before: there is nothing left to pay',
    '注文は先に開始した支払いで支払済みです。再度支払う必要はありません',
  ),
  unreachable: text(
    '暂时无法连接支付平台，请稍后重试或选择其他支付方式',
    'The payment provider cannot be reached now: try again later or choose another way to pay',
    '決済事業者に接続できません。しばらくしてから再試行するか、別の支払方法を選んでください',
  ),
};
