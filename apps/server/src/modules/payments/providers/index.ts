import type { ProviderMethod } from '@marquee/protocol';
import { ALIPAY_SETTINGS, type PaymentsConfig, WECHATPAY_SETTINGS } from '../../../config.js';
import { AlipayProvider } from './alipay.js';
import type { PaymentProvider } from './types.js';
import { WechatPayProvider } from './wechat.js';

export type {
  CreatedPayment,
  NotificationAck,
  NotificationRequest,
  PaymentProvider,
  ProviderPayment,
  ProviderRefund,
} from './types.js';
export { NotificationRejected, ProviderError } from './types.js';

/**
 * The payment providers of the aggregate payment page (issue 26): WeChat Pay API v3 (native:
 * a QR code) and Alipay (page pay: a redirect; or precreate: a QR code), each enabled by its
 * settings (config.ts, README's table, docs/operations.md "Payment providers"). Nothing here
 * touches the database: attempts.ts settles what a provider says.
 */

export interface ProviderSetting {
  method: ProviderMethod;
  configured: boolean;
  /** The settings that enable it (environment variable names). */
  settings: string[];
}

// The configuration the app was built with last (payment.info calls providerSettings() bare).
let lastConfig: PaymentsConfig | null = null;

/** Remembers the app's payment configuration (buildApp, through registerPayNotify). */
export function useProviderConfig(config: PaymentsConfig): void {
  lastConfig = config;
}

/**
 * Which providers are configured, with the settings that enable each. Pass the app's
 * `ctx.services.config.payments`; without it, the configuration of the app built last.
 */
export function providerSettings(config: PaymentsConfig | null = lastConfig): ProviderSetting[] {
  return [
    { method: 'wechat', configured: Boolean(config?.wechat), settings: [...WECHATPAY_SETTINGS] },
    { method: 'alipay', configured: Boolean(config?.alipay), settings: [...ALIPAY_SETTINGS] },
  ];
}

// One adapter per configuration object (keys parsed once).
const cache = new WeakMap<PaymentsConfig, Partial<Record<ProviderMethod, PaymentProvider>>>();

/** The adapter of `method`, or null when it is not configured. */
export function providerFor(config: PaymentsConfig, method: ProviderMethod): PaymentProvider | null {
  let built = cache.get(config);
  if (!built) {
    built = {};
    cache.set(config, built);
  }
  const known = built[method];
  if (known) return known;
  let provider: PaymentProvider | null = null;
  if (method === 'wechat' && config.wechat) provider = new WechatPayProvider(config.wechat);
  if (method === 'alipay' && config.alipay) provider = new AlipayProvider(config.alipay);
  if (provider) built[method] = provider;
  return provider;
}

/** Builds every configured adapter (parsing its keys): a bad key fails the server's start, not a payment. */
export function checkProviders(config: PaymentsConfig): void {
  providerFor(config, 'wechat');
  providerFor(config, 'alipay');
}

/** The URL a provider calls back for `method`. */
export function notifyUrl(config: PaymentsConfig, method: ProviderMethod): string {
  return `${config.notifyBaseUrl}/api/pay/notify/${method}`;
}
