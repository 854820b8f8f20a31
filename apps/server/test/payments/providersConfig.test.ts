import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { alipayNodeText, alipaySignContent } from '../../src/modules/payments/providers/alipay.js';
import { checkProviders, providerFor, providerSettings } from '../../src/modules/payments/providers/index.js';

/** The payment providers' settings (README's table, docs/operations.md "Payment providers"). */
describe('payment provider settings', () => {
  const rsa = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
  const merchant = rsa();
  const platform = rsa();
  const privatePem = merchant.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
  const publicPem = platform.publicKey.export({ format: 'pem', type: 'spki' }) as string;
  const wechatEnv = {
    WECHATPAY_MCHID: '1900000109',
    WECHATPAY_APPID: 'wxd678efh567hg6787',
    WECHATPAY_SERIAL_NO: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1',
    WECHATPAY_PRIVATE_KEY: privatePem,
    WECHATPAY_PLATFORM_PUBLIC_KEY: publicPem,
    WECHATPAY_PLATFORM_SERIAL: 'PUB_KEY_ID_0114232134912410000000000000',
    WECHATPAY_API_V3_KEY: 'a'.repeat(32),
  };

  it('is off with nothing set, and says which settings enable each', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config.payments.wechat).toBeNull();
    expect(config.payments.alipay).toBeNull();
    expect(providerSettings(config.payments).map((p) => [p.method, p.configured])).toEqual([
      ['wechat', false],
      ['alipay', false],
    ]);
    expect(providerFor(config.payments, 'wechat')).toBeNull();
  });

  it('reads WeChat Pay from PEM text (with escaped line breaks) or a file, the base URL and the notify URL', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paykeys-'));
    writeFileSync(join(dir, 'apiclient_key.pem'), privatePem);
    const config = loadConfig(
      {
        ...wechatEnv,
        WECHATPAY_PRIVATE_KEY: 'apiclient_key.pem',
        WECHATPAY_PLATFORM_PUBLIC_KEY: publicPem.replace(/\n/g, '\\n'),
        WECHATPAY_BASE_URL: 'http://127.0.0.1:9/',
        PUBLIC_URL: 'https://console.example.com',
        PAY_NOTIFY_BASE_URL: 'https://pay.example.com',
      },
      dir,
    );
    expect(config.payments.wechat).toMatchObject({
      mchId: '1900000109',
      baseUrl: 'http://127.0.0.1:9',
      platformSerial: 'PUB_KEY_ID_0114232134912410000000000000',
    });
    expect(config.payments.wechat?.privateKey).toContain('BEGIN PRIVATE KEY');
    expect(config.payments.wechat?.platformPublicKey).toBe(publicPem);
    expect(config.payments.notifyBaseUrl).toBe('https://pay.example.com');
    expect(config.payments.returnBaseUrl).toBe('https://console.example.com');
    expect(() => checkProviders(config.payments)).not.toThrow();
    expect(providerSettings(config.payments)[0].configured).toBe(true);
    expect(loadConfig(wechatEnv).payments.wechat?.baseUrl).toBe('https://api.mch.weixin.qq.com');
  });

  it('refuses a partial or wrong configuration at start', () => {
    expect(() => loadConfig({ WECHATPAY_MCHID: '1900000109' })).toThrow(
      /WeChat Pay is partly configured.*WECHATPAY_APPID/,
    );
    expect(() => loadConfig({ ...wechatEnv, WECHATPAY_API_V3_KEY: 'short' })).toThrow(/WECHATPAY_API_V3_KEY/);
    expect(() => loadConfig({ ...wechatEnv, WECHATPAY_PLATFORM_SERIAL: '' })).toThrow(/WECHATPAY_PLATFORM_SERIAL/);
    expect(() => loadConfig({ ...wechatEnv, WECHATPAY_PRIVATE_KEY: '/nonexistent/key.pem' })).toThrow(
      /WECHATPAY_PRIVATE_KEY/,
    );
    expect(() => loadConfig({ ALIPAY_APP_ID: '2021000000000001' })).toThrow(/Alipay is partly configured/);
    expect(() => loadConfig({ ...wechatEnv, WECHATPAY_BASE_URL: 'ftp://x' })).toThrow(/WECHATPAY_BASE_URL/);
    const broken = loadConfig({
      ...wechatEnv,
      WECHATPAY_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----',
    });
    expect(() => checkProviders(broken.payments)).toThrow();
  });

  it("reads Alipay's bare base64 keys (its key tool's form), PKCS#8 or PKCS#1, and the mode", () => {
    const app = rsa();
    const bare = (pem: string) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
    const pkcs8 = bare(app.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string);
    const pkcs1 = bare(app.privateKey.export({ format: 'pem', type: 'pkcs1' }) as string);
    const alipayPublic = bare(platform.publicKey.export({ format: 'pem', type: 'spki' }) as string);
    for (const key of [pkcs8, pkcs1]) {
      const config = loadConfig({
        ALIPAY_APP_ID: '2021000000000001',
        ALIPAY_PRIVATE_KEY: key,
        ALIPAY_PUBLIC_KEY: alipayPublic,
      });
      expect(config.payments.alipay).toMatchObject({ gateway: 'https://openapi.alipay.com/gateway.do', mode: 'page' });
      expect(() => checkProviders(config.payments)).not.toThrow();
    }
    const qr = loadConfig({
      ALIPAY_APP_ID: '2021000000000001',
      ALIPAY_PRIVATE_KEY: pkcs8,
      ALIPAY_PUBLIC_KEY: alipayPublic,
      ALIPAY_MODE: 'qr',
    });
    expect(qr.payments.alipay?.mode).toBe('qr');
    expect(() =>
      loadConfig({
        ALIPAY_APP_ID: 'x',
        ALIPAY_PRIVATE_KEY: pkcs8,
        ALIPAY_PUBLIC_KEY: alipayPublic,
        ALIPAY_MODE: 'app',
      }),
    ).toThrow(/ALIPAY_MODE/);
  });

  it("signs Alipay's sorted parameters and reads an answer's signed node exactly", () => {
    expect(alipaySignContent({ b: '2', a: '1', sign: 'x', c: '' })).toBe('a=1&b=2');
    expect(alipaySignContent({ b: '2', sign_type: 'RSA2', sign: 'x' }, ['sign', 'sign_type'])).toBe('b=2');
    const body = '{"alipay_trade_query_response":{"code":"10000","msg":"Success","total_amount":"1.00"},"sign":"abc"}';
    expect(alipayNodeText(body, 'alipay_trade_query_response')).toBe(
      '{"code":"10000","msg":"Success","total_amount":"1.00"}',
    );
    expect(alipayNodeText('{"sign":"abc", "x_response" : {"a":1} }', 'x_response')).toBe('{"a":1}');
  });
});
