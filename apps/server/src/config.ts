import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_TIME_ZONE, isTimeZone, PLAYS_MAX_AGE_DAYS } from '@marquee/protocol';

/** The repository root, from this file's place in apps/server/src. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Config {
  port: number;
  host: string;
  /** Absolute data directory; PGlite lives in `<dataDir>/pglite`. */
  dataDir: string;
  /** PostgreSQL connection string; when absent the embedded PGlite is used. */
  databaseUrl: string | undefined;
  /** The built console (apps/web/dist); served when it exists. */
  webDist: string;
  /** The built browser player (apps/player/dist), served under /player/ when it exists. */
  playerDist: string;
  logLevel: string;
  sessionIdleHours: number;
  sessionMaxDays: number;
  /** Trust X-Forwarded-For from a reverse proxy (the operation log records the client IP). */
  trustProxy: boolean;
  /**
   * APP_SECRET, the key of the server's own HMACs (verification-code hashes, OAuth state and
   * invitation signatures); empty means the random key kept in the database (auth/secret.ts).
   */
  appSecret: string;
  /** The console's public origin (OAuth redirect URIs); default http://localhost:<port>. */
  publicUrl: string;
  /** WeChat and DingTalk scan login; a provider without full settings is 'feature not online'. */
  oauth: { wechat: OAuthProviderConfig | null; dingtalk: OAuthProviderConfig | null };
  /** Connections of this instance's PostgreSQL pool (DATABASE_POOL_SIZE). */
  databasePoolSize: number;
  /** The background job queue (pg-boss) of this instance. */
  jobs: JobsConfig;
  /** SIGTERM: how long calls in flight and running jobs get to finish (SHUTDOWN_TIMEOUT_SECONDS). */
  shutdownTimeoutMs: number;
  /** The device broker (docs/device-protocol.md, modules/devices). */
  mqtt: MqttConfig;
  /** Geocoding of device and store addresses (modules/geo). */
  geocoder: GeocoderConfig;
  /** File storage (src/storage): local disk under STORAGE_DIR (default `<dataDir>/files`), or S3 (STORAGE=s3). */
  storage: StorageConfig;
  /** The weather data of layouts' weather components (modules/weather). */
  weather: WeatherConfig;
  /** The quotes of layouts' share-price components (modules/shares). */
  shares: SharesConfig;
  /**
   * DEFAULT_TIME_ZONE: the IANA zone a new enterprise gets (default Asia/Shanghai); its
   * administrator can change it, and a device can override it (issue 31).
   */
  defaultTimeZone: string;
  /**
   * MESSAGE_LANGUAGE: the language of SMS and e-mail notices (warnings, alarms), which go to
   * phone numbers and addresses that keep no language of their own: zh-CN (default), en-US or ja.
   */
  messageLanguage: 'zh-CN' | 'en-US' | 'ja';
  /**
   * PLAYS_RETENTION_DAYS: days of raw proof of play kept (the `plays` day partitions; the
   * rollups the reports read are kept): modules/content/retention.ts.
   */
  playsRetentionDays: number;
  /**
   * DEMO_PLAYERS: headless players the server runs in a child process for the demo tenant
   * (src/demo/fleet.ts); default 4 on the embedded database, 0 (off) with DATABASE_URL.
   */
  demoPlayers: number;
  /** The payment providers (WeChat Pay, Alipay) of the aggregate payment page (modules/payments/providers). */
  payments: PaymentsConfig;
  /** The e-signature provider of the airtime market's contracts (modules/sales/esign.ts). */
  esign: EsignConfig;
}

/** Most players the demo fleet runs (one child process; the machine it demos on may be small). */
export const MAX_DEMO_PLAYERS = 8;

function demoPlayers(env: NodeJS.ProcessEnv): number {
  const raw = (env.DEMO_PLAYERS ?? '').trim().toLowerCase();
  if (raw === '') return env.DATABASE_URL ? 0 : 4;
  if (raw === 'off') return 0;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > MAX_DEMO_PLAYERS) {
    throw new Error(
      `DEMO_PLAYERS must be off or a whole number from 0 to ${MAX_DEMO_PLAYERS}, got "${env.DEMO_PLAYERS}"`,
    );
  }
  return value;
}

/**
 * The shortest plays retention accepted: longer than the oldest play an upload may still bring
 * (PLAYS_MAX_AGE_DAYS), so a dropped day never gets a late play whose rollup recompute would
 * replace the day's figures with that one play.
 */
export const MIN_PLAYS_RETENTION_DAYS = PLAYS_MAX_AGE_DAYS + 2;
export const DEFAULT_PLAYS_RETENTION_DAYS = 400;

function playsRetentionDays(env: NodeJS.ProcessEnv): number {
  const raw = env.PLAYS_RETENTION_DAYS;
  if (raw === undefined || raw.trim() === '') return DEFAULT_PLAYS_RETENTION_DAYS;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < MIN_PLAYS_RETENTION_DAYS || value > 100_000) {
    throw new Error(
      `PLAYS_RETENTION_DAYS must be a whole number of days from ${MIN_PLAYS_RETENTION_DAYS} (uploads bring plays up to ${PLAYS_MAX_AGE_DAYS} days old), got "${raw}"`,
    );
  }
  return value;
}

/** STORAGE, STORAGE_DIR and the S3_* variables (docs/operations.md "File storage"). */
export type StorageConfig = { kind: 'local'; dir: string } | ({ kind: 's3' } & S3Config);

export interface S3Config {
  /** The S3 API's base URL (MinIO, Ceph, OSS...); empty: AWS S3 of the region. */
  endpoint: string;
  bucket: string;
  accessKey: string;
  secretKey: string;
  region: string;
  /** Path-style URLs (`<endpoint>/<bucket>/<key>`), which MinIO and most self-hosted stores need. */
  forcePathStyle: boolean;
  /** Where browsers reach the store for direct uploads when it differs from `endpoint` (S3_PUBLIC_ENDPOINT). */
  publicEndpoint: string;
}

function storageConfig(env: NodeJS.ProcessEnv, dir: string): StorageConfig {
  const kind = (env.STORAGE || 'local').trim().toLowerCase();
  if (kind === 'local') return { kind, dir };
  if (kind !== 's3') throw new Error(`STORAGE must be local or s3, got "${env.STORAGE}"`);
  const endpoint = (env.S3_ENDPOINT || '').replace(/\/+$/, '');
  const publicEndpoint = (env.S3_PUBLIC_ENDPOINT || '').replace(/\/+$/, '');
  for (const [name, value] of [
    ['S3_ENDPOINT', endpoint],
    ['S3_PUBLIC_ENDPOINT', publicEndpoint],
  ]) {
    if (value && !/^https?:\/\//.test(value)) throw new Error(`${name} must be an http(s):// URL, got "${value}"`);
  }
  const bucket = env.S3_BUCKET || '';
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new Error('STORAGE=s3 needs S3_BUCKET (a bucket name)');
  const accessKey = env.S3_ACCESS_KEY || '';
  const secretKey = env.S3_SECRET_KEY || '';
  if (!accessKey || !secretKey) throw new Error('STORAGE=s3 needs S3_ACCESS_KEY and S3_SECRET_KEY');
  return {
    kind,
    endpoint,
    bucket,
    accessKey,
    secretKey,
    region: env.S3_REGION || 'us-east-1',
    // A custom endpoint is usually MinIO or similar, where path style is the safe default.
    forcePathStyle: onOff(env, 'S3_FORCE_PATH_STYLE', endpoint !== ''),
    publicEndpoint,
  };
}

/** WECHATPAY_*, ALIPAY_* and PAY_NOTIFY_BASE_URL (docs/operations.md "Payment providers"). */
export interface PaymentsConfig {
  /** The public origin the providers call back (PAY_NOTIFY_BASE_URL; default PUBLIC_URL). */
  notifyBaseUrl: string;
  /** The console's public origin (where Alipay's page pay returns the payer). */
  returnBaseUrl: string;
  /** WeChat Pay API v3 (native pay: a QR code); null when not configured. */
  wechat: WechatPayConfig | null;
  /** Alipay (open platform, RSA2); null when not configured. */
  alipay: AlipayConfig | null;
  /**
   * The platform's bank account that offline transfers go to (OFFLINE_PAY_ACCOUNT_NAME,
   * OFFLINE_PAY_BANK, OFFLINE_PAY_ACCOUNT_NO, all three or none): /payUnderline shows it.
   */
  offlineAccount: { accountName: string; bankName: string; accountNo: string } | null;
}

export interface WechatPayConfig {
  mchId: string;
  appId: string;
  /** The serial number of the merchant's API certificate (the `serial_no` of signed requests). */
  serialNo: string;
  /** The merchant's API private key, PEM. */
  privateKey: string;
  /** WeChat Pay's public key (or platform certificate), PEM: verifies answers and notifications. */
  platformPublicKey: string;
  /** The serial (public key id 'PUB_KEY_ID_...' or certificate serial) notifications must name. */
  platformSerial: string;
  /** The APIv3 key (32 characters): decrypts notification resources (AEAD_AES_256_GCM). */
  apiV3Key: string;
  baseUrl: string;
}

export interface AlipayConfig {
  appId: string;
  /** The application's private key, PEM. */
  privateKey: string;
  /** Alipay's public key, PEM: verifies answers and notifications. */
  alipayPublicKey: string;
  gateway: string;
  /** 'page': alipay.trade.page.pay (a redirect, default); 'qr': alipay.trade.precreate (a QR code). */
  mode: 'page' | 'qr';
}

/** The settings that enable WeChat Pay (all of them), in the order the README lists them. */
export const WECHATPAY_SETTINGS = [
  'WECHATPAY_MCHID',
  'WECHATPAY_APPID',
  'WECHATPAY_SERIAL_NO',
  'WECHATPAY_PRIVATE_KEY',
  'WECHATPAY_PLATFORM_PUBLIC_KEY',
  'WECHATPAY_PLATFORM_SERIAL',
  'WECHATPAY_API_V3_KEY',
] as const;
/** The settings that enable Alipay (all of them). */
export const ALIPAY_SETTINGS = ['ALIPAY_APP_ID', 'ALIPAY_PRIVATE_KEY', 'ALIPAY_PUBLIC_KEY'] as const;

/**
 * A key setting: PEM text (literal '\\n' read as line breaks, as env files often hold it), a
 * path to a PEM file, or bare base64 DER (what Alipay's key tool shows), wrapped as `label`.
 */
function pemSetting(env: NodeJS.ProcessEnv, name: string, label: 'PRIVATE KEY' | 'PUBLIC KEY', cwd: string): string {
  const raw = (env[name] ?? '').trim();
  if (raw.includes('-----BEGIN')) return raw.replace(/\\n/g, '\n');
  const compact = raw.replace(/\s+/g, '');
  if (compact.length > 100 && /^[A-Za-z0-9+/]+=*$/.test(compact)) {
    return `-----BEGIN ${label}-----\n${compact.match(/.{1,64}/g)?.join('\n')}\n-----END ${label}-----\n`;
  }
  const file = isAbsolute(raw) ? raw : resolve(cwd, raw);
  if (!existsSync(file))
    throw new Error(`${name} must be a PEM key or the path of a PEM file, got "${raw.slice(0, 40)}"`);
  return readFileSync(file, 'utf8');
}

function httpUrl(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const url = (env[name] || fallback).trim().replace(/\/+$/, '');
  if (!/^https?:\/\//.test(url)) throw new Error(`${name} must be an http(s):// URL, got "${url}"`);
  return url;
}

/** A provider is configured when every one of its settings is set; some but not all is a mistake. */
function allOrNone(env: NodeJS.ProcessEnv, names: readonly string[], provider: string): boolean {
  const set = names.filter((n) => (env[n] ?? '').trim() !== '');
  if (set.length === 0) return false;
  if (set.length === names.length) return true;
  const missing = names.filter((n) => !set.includes(n));
  throw new Error(`${provider} is partly configured: set ${missing.join(', ')} too (or unset ${set.join(', ')})`);
}

const OFFLINE_ACCOUNT_SETTINGS = ['OFFLINE_PAY_ACCOUNT_NAME', 'OFFLINE_PAY_BANK', 'OFFLINE_PAY_ACCOUNT_NO'];

function paymentsConfig(env: NodeJS.ProcessEnv, publicUrl: string, cwd: string): PaymentsConfig {
  const notifyBaseUrl = httpUrl(env, 'PAY_NOTIFY_BASE_URL', publicUrl);
  let wechat: WechatPayConfig | null = null;
  // The platform serial may come from the certificate itself.
  const wechatNames = WECHATPAY_SETTINGS.filter((n) => n !== 'WECHATPAY_PLATFORM_SERIAL');
  if (allOrNone(env, wechatNames, 'WeChat Pay')) {
    const platformPublicKey = pemSetting(env, 'WECHATPAY_PLATFORM_PUBLIC_KEY', 'PUBLIC KEY', cwd);
    let platformSerial = (env.WECHATPAY_PLATFORM_SERIAL ?? '').trim();
    if (!platformSerial && platformPublicKey.includes('BEGIN CERTIFICATE')) {
      platformSerial = new X509Certificate(platformPublicKey).serialNumber.toUpperCase();
    }
    if (!platformSerial) {
      throw new Error(
        'WeChat Pay needs WECHATPAY_PLATFORM_SERIAL (the public key id PUB_KEY_ID_...) with a public key',
      );
    }
    const apiV3Key = (env.WECHATPAY_API_V3_KEY ?? '').trim();
    if (Buffer.byteLength(apiV3Key) !== 32) throw new Error('WECHATPAY_API_V3_KEY must be the 32-character APIv3 key');
    wechat = {
      mchId: (env.WECHATPAY_MCHID ?? '').trim(),
      appId: (env.WECHATPAY_APPID ?? '').trim(),
      serialNo: (env.WECHATPAY_SERIAL_NO ?? '').trim(),
      privateKey: pemSetting(env, 'WECHATPAY_PRIVATE_KEY', 'PRIVATE KEY', cwd),
      platformPublicKey,
      platformSerial,
      apiV3Key,
      baseUrl: httpUrl(env, 'WECHATPAY_BASE_URL', 'https://api.mch.weixin.qq.com'),
    };
  }
  let alipay: AlipayConfig | null = null;
  if (allOrNone(env, ALIPAY_SETTINGS, 'Alipay')) {
    const mode = (env.ALIPAY_MODE || 'page').trim().toLowerCase();
    if (mode !== 'page' && mode !== 'qr') throw new Error(`ALIPAY_MODE must be page or qr, got "${env.ALIPAY_MODE}"`);
    alipay = {
      appId: (env.ALIPAY_APP_ID ?? '').trim(),
      privateKey: pemSetting(env, 'ALIPAY_PRIVATE_KEY', 'PRIVATE KEY', cwd),
      alipayPublicKey: pemSetting(env, 'ALIPAY_PUBLIC_KEY', 'PUBLIC KEY', cwd),
      gateway: httpUrl(env, 'ALIPAY_GATEWAY', 'https://openapi.alipay.com/gateway.do'),
      mode,
    };
  }
  const offlineAccount = allOrNone(env, OFFLINE_ACCOUNT_SETTINGS, 'The offline bank account')
    ? {
        accountName: (env.OFFLINE_PAY_ACCOUNT_NAME ?? '').trim(),
        bankName: (env.OFFLINE_PAY_BANK ?? '').trim(),
        accountNo: (env.OFFLINE_PAY_ACCOUNT_NO ?? '').trim(),
      }
    : null;
  return { notifyBaseUrl, returnBaseUrl: publicUrl, wechat, alipay, offlineAccount };
}

/** GEOCODER, GEOCODER_URL, GEOCODER_KEY, GEOCODER_TIMEOUT_MS. */
export interface GeocoderConfig {
  /** 'none' (default): only the offline region data set; 'amap' or 'nominatim': that HTTP service first. */
  provider: 'none' | 'amap' | 'nominatim';
  /** The service's base URL (default AMap's or OpenStreetMap's public one). */
  url: string;
  /** The service's key (AMap requires one). */
  key: string;
  timeoutMs: number;
}

const GEOCODER_URLS = { amap: 'https://restapi.amap.com', nominatim: 'https://nominatim.openstreetmap.org' };

function geocoderConfig(env: NodeJS.ProcessEnv): GeocoderConfig {
  const provider = (env.GEOCODER || 'none').toLowerCase();
  if (provider !== 'none' && provider !== 'amap' && provider !== 'nominatim') {
    throw new Error(`GEOCODER must be none, amap or nominatim, got "${env.GEOCODER}"`);
  }
  const url = (env.GEOCODER_URL || (provider === 'none' ? '' : GEOCODER_URLS[provider])).replace(/\/+$/, '');
  if (url && !/^https?:\/\//.test(url)) throw new Error('GEOCODER_URL must be an http(s):// URL');
  const key = env.GEOCODER_KEY || '';
  if (provider === 'amap' && !key) throw new Error('GEOCODER=amap needs GEOCODER_KEY');
  return { provider, url, key, timeoutMs: positiveNumber(env, 'GEOCODER_TIMEOUT_MS', 5000) };
}

/** WEATHER_PROVIDER, WEATHER_URL, WEATHER_TIMEOUT_MS. */
export interface WeatherConfig {
  /** 'none' (default): weather components say their data is unavailable; 'open-meteo': that service. */
  provider: 'none' | 'open-meteo';
  /** The forecast service's base URL (default Open-Meteo's public one); its geocoding is asked at WEATHER_GEOCODING_URL. */
  url: string;
  geocodingUrl: string;
  timeoutMs: number;
}

function weatherConfig(env: NodeJS.ProcessEnv): WeatherConfig {
  const provider = (env.WEATHER_PROVIDER || 'none').toLowerCase();
  if (provider !== 'none' && provider !== 'open-meteo') {
    throw new Error(`WEATHER_PROVIDER must be none or open-meteo, got "${env.WEATHER_PROVIDER}"`);
  }
  const url = (env.WEATHER_URL || 'https://api.open-meteo.com').replace(/\/+$/, '');
  const geocodingUrl = (env.WEATHER_GEOCODING_URL || 'https://geocoding-api.open-meteo.com').replace(/\/+$/, '');
  for (const u of [url, geocodingUrl])
    if (!/^https?:\/\//.test(u)) throw new Error('WEATHER_URL must be an http(s):// URL');
  return { provider, url, geocodingUrl, timeoutMs: positiveNumber(env, 'WEATHER_TIMEOUT_MS', 5000) };
}

function messageLanguageOf(env: NodeJS.ProcessEnv): Config['messageLanguage'] {
  const language = (env.MESSAGE_LANGUAGE || 'zh-CN').trim();
  if (language !== 'zh-CN' && language !== 'en-US' && language !== 'ja') {
    throw new Error(`MESSAGE_LANGUAGE must be zh-CN, en-US or ja, got "${env.MESSAGE_LANGUAGE}"`);
  }
  return language;
}

function defaultTimeZoneOf(env: NodeJS.ProcessEnv): string {
  const zone = (env.DEFAULT_TIME_ZONE || DEFAULT_TIME_ZONE).trim();
  if (!isTimeZone(zone)) throw new Error(`DEFAULT_TIME_ZONE must be an IANA time zone, got "${env.DEFAULT_TIME_ZONE}"`);
  return zone;
}

/** SHARES_PROVIDER, SHARES_URL, SHARES_KEY, SHARES_TIMEOUT_MS (docs/operations.md "Share-price provider"). */
export interface SharesConfig {
  /**
   * 'none' (default): share-price components show nothing; 'http': a quote service answering the
   * generic JSON shape of modules/shares/provider.ts at SHARES_URL.
   */
  provider: 'none' | 'http';
  /** The quote service's base URL ('' without a provider). */
  url: string;
  /** Sent as `Authorization: Bearer <key>` when set. */
  key: string;
  timeoutMs: number;
}

function sharesConfig(env: NodeJS.ProcessEnv): SharesConfig {
  const provider = (env.SHARES_PROVIDER || 'none').toLowerCase();
  if (provider !== 'none' && provider !== 'http') {
    throw new Error(`SHARES_PROVIDER must be none or http, got "${env.SHARES_PROVIDER}"`);
  }
  const url = (env.SHARES_URL || '').replace(/\/+$/, '');
  if (provider === 'http' && !url) throw new Error('SHARES_PROVIDER=http needs SHARES_URL');
  if (url && !/^https?:\/\//.test(url)) throw new Error('SHARES_URL must be an http(s):// URL');
  return { provider, url, key: env.SHARES_KEY || '', timeoutMs: positiveNumber(env, 'SHARES_TIMEOUT_MS', 5000) };
}

/** ESIGN_URL, ESIGN_TOKEN, ESIGN_TIMEOUT_MS, ESIGN_MAX_ATTEMPTS (docs/operations.md "E-signature provider"). */
export interface EsignConfig {
  /** The provider's base URL; '' (default): none, contracts are signed inside the product only. */
  url: string;
  /** Sent as `Authorization: Bearer <token>` when set. */
  token: string;
  /** How long one call to the provider may take. */
  timeoutMs: number;
  /** Tries of a contract's sync before it stays failed until someone retries it. */
  maxAttempts: number;
}

function esignConfig(env: NodeJS.ProcessEnv): EsignConfig {
  const url = (env.ESIGN_URL || '').replace(/\/+$/, '');
  if (url && !/^https?:\/\//.test(url)) throw new Error('ESIGN_URL must be an http(s):// URL');
  return {
    url,
    token: env.ESIGN_TOKEN || '',
    timeoutMs: positiveNumber(env, 'ESIGN_TIMEOUT_MS', 10_000),
    maxAttempts: Math.max(1, Math.round(positiveNumber(env, 'ESIGN_MAX_ATTEMPTS', 5))),
  };
}

/** JOBS, JOB_POLL_SECONDS, JOB_MAINTENANCE_SECONDS, JOB_POOL_SIZE. */
export interface JobsConfig {
  /** JOBS=on (default): this instance runs jobs and schedules; off: it only sends them (serves calls). */
  enabled: boolean;
  /**
   * JOB_SCHEDULES=on (default): a JOBS=on instance also sends the periodic jobs on their cron
   * (once across all instances); off: it works what is sent and woken, never the clock's runs
   * (tests drive the periodic jobs by hand on a simulated clock).
   */
  schedules: boolean;
  /** How often an idle worker looks for new jobs; jobs sent by this instance start at once. */
  pollSeconds: number;
  /** How often the queue's maintenance (expiring runs of dead instances, archiving) runs. */
  maintenanceSeconds: number;
  /** Connections of the job queue's own PostgreSQL pool. */
  poolSize: number;
}

/** MQTT_* variables: the embedded broker by default, an external one with MQTT_URL. */
export interface MqttConfig {
  /** An external broker (mqtt://, mqtts://, ws://, wss://); empty: the embedded aedes. */
  url: string;
  /** The server's own credentials on the broker (external; embedded: derived from the server secret when empty). */
  username: string;
  password: string;
  /** The embedded broker's TCP port (MQTT_TCP_PORT, default 18830; 0 or "off" disables it). */
  tcpPort: number;
  /** External Mosquitto with the dynamic-security plugin: the server manages each device's client and role. */
  dynsec: boolean;
  /** Broker URLs handed to devices, best first (MQTT_PUBLIC_URLS, comma-separated); empty: derived. */
  publicUrls: string[];
  /** Shared secret EMQX sends in the `x-marquee-broker` header to the HTTP auth endpoints (empty: none required). */
  httpAuthSecret: string;
  /**
   * Where devices reach THIS instance's embedded broker directly (MQTT_INSTANCE_URLS,
   * comma-separated); empty: derived from HOST (or the machine's address) and the ports.
   * Several instances: every live instance's are put in a device's credentials to fail over to.
   */
  instanceUrls?: string[];
}

function mqttConfig(env: NodeJS.ProcessEnv): MqttConfig {
  const rawPort = env.MQTT_TCP_PORT;
  let tcpPort = 18830;
  if (rawPort === 'off' || rawPort === '0') tcpPort = 0;
  else if (rawPort) {
    tcpPort = Number(rawPort);
    if (!Number.isInteger(tcpPort) || tcpPort < 1 || tcpPort > 65535) {
      throw new Error(`MQTT_TCP_PORT must be a port number, 0 or off, got "${rawPort}"`);
    }
  }
  const url = env.MQTT_URL || '';
  if (url && !/^(mqtts?|wss?|tcp):\/\//.test(url)) throw new Error(`MQTT_URL must be an mqtt(s):// or ws(s):// URL`);
  return {
    url,
    username: env.MQTT_USERNAME || '',
    password: env.MQTT_PASSWORD || '',
    tcpPort,
    dynsec: env.MQTT_DYNSEC === 'true' || env.MQTT_DYNSEC === '1',
    publicUrls: (env.MQTT_PUBLIC_URLS || '')
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean),
    httpAuthSecret: env.MQTT_HTTP_AUTH_SECRET || '',
    instanceUrls: (env.MQTT_INSTANCE_URLS || '')
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean),
  };
}

/** One OAuth2 provider (authorization-code flow): WECHAT_* or DINGTALK_* variables. */
export interface OAuthProviderConfig {
  authorizeUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
  clientId: string;
  clientSecret: string;
  scope: string;
}

/** A provider's settings when all five are set, else null (the method is 'feature not online'). */
function oauthProvider(
  env: NodeJS.ProcessEnv,
  prefix: 'WECHAT' | 'DINGTALK',
  scope: string,
): OAuthProviderConfig | null {
  const authorizeUrl = env[`${prefix}_AUTHORIZE_URL`];
  const tokenUrl = env[`${prefix}_TOKEN_URL`];
  const userinfoUrl = env[`${prefix}_USERINFO_URL`];
  const clientId = env[`${prefix}_CLIENT_ID`];
  const clientSecret = env[`${prefix}_CLIENT_SECRET`];
  if (!authorizeUrl || !tokenUrl || !userinfoUrl || !clientId || !clientSecret) return null;
  for (const [name, value] of [
    ['AUTHORIZE_URL', authorizeUrl],
    ['TOKEN_URL', tokenUrl],
    ['USERINFO_URL', userinfoUrl],
  ]) {
    if (!/^https?:\/\//.test(value)) throw new Error(`${prefix}_${name} must be an http(s) URL, got "${value}"`);
  }
  return { authorizeUrl, tokenUrl, userinfoUrl, clientId, clientSecret, scope: env[`${prefix}_SCOPE`] || scope };
}

function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '') return fallback;
  if (['on', 'true', '1', 'yes'].includes(raw)) return true;
  if (['off', 'false', '0', 'no'].includes(raw)) return false;
  throw new Error(`${name} must be on or off, got "${env[name]}"`);
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}

/**
 * Reads the environment into a typed config, in one place. Relative paths resolve against
 * `cwd`. Throws on values that would otherwise fail later and less clearly.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): Config {
  const port = positiveNumber(env, 'PORT', 8080);
  if (!Number.isInteger(port) || port > 65535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const path = (value: string) => (isAbsolute(value) ? value : resolve(cwd, value));
  const dataDir = path(env.DATA_DIR || './data');
  const publicUrl = (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    webDist: path(env.WEB_DIST || join(REPO_ROOT, 'apps/web/dist')),
    playerDist: path(env.PLAYER_DIST || join(REPO_ROOT, 'apps/player/dist')),
    logLevel,
    sessionIdleHours: positiveNumber(env, 'SESSION_IDLE_HOURS', 12),
    sessionMaxDays: positiveNumber(env, 'SESSION_MAX_DAYS', 7),
    trustProxy: env.TRUST_PROXY === 'true' || env.TRUST_PROXY === '1',
    appSecret: env.APP_SECRET || '',
    publicUrl,
    oauth: {
      wechat: oauthProvider(env, 'WECHAT', 'snsapi_login'),
      dingtalk: oauthProvider(env, 'DINGTALK', 'openid'),
    },
    databasePoolSize: Math.round(positiveNumber(env, 'DATABASE_POOL_SIZE', 10)),
    jobs: {
      enabled: onOff(env, 'JOBS', true),
      schedules: onOff(env, 'JOB_SCHEDULES', true),
      pollSeconds: Math.max(0.5, positiveNumber(env, 'JOB_POLL_SECONDS', 2)),
      maintenanceSeconds: Math.max(1, Math.round(positiveNumber(env, 'JOB_MAINTENANCE_SECONDS', 60))),
      poolSize: Math.round(positiveNumber(env, 'JOB_POOL_SIZE', 3)),
    },
    shutdownTimeoutMs: positiveNumber(env, 'SHUTDOWN_TIMEOUT_SECONDS', 25) * 1000,
    mqtt: mqttConfig(env),
    geocoder: geocoderConfig(env),
    storage: storageConfig(env, env.STORAGE_DIR ? path(env.STORAGE_DIR) : join(dataDir, 'files')),
    weather: weatherConfig(env),
    shares: sharesConfig(env),
    defaultTimeZone: defaultTimeZoneOf(env),
    messageLanguage: messageLanguageOf(env),
    playsRetentionDays: playsRetentionDays(env),
    demoPlayers: demoPlayers(env),
    payments: paymentsConfig(env, publicUrl, cwd),
    esign: esignConfig(env),
  };
}
