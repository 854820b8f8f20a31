import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, REPO_ROOT } from '../src/config.js';

describe('config', () => {
  it('has defaults', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toEqual({
      port: 8080,
      playerDist: expect.stringMatching(/apps\/player\/dist$/),
      host: '0.0.0.0',
      dataDir: '/srv/app/data',
      databaseUrl: undefined,
      webDist: join(REPO_ROOT, 'apps/web/dist'),
      logLevel: 'info',
      sessionIdleHours: 12,
      sessionMaxDays: 7,
      trustProxy: false,
      appSecret: '',
      publicUrl: 'http://localhost:8080',
      oauth: { wechat: null, dingtalk: null },
      databasePoolSize: 10,
      jobs: { enabled: true, schedules: true, pollSeconds: 2, maintenanceSeconds: 60, poolSize: 3 },
      shutdownTimeoutMs: 25_000,
      mqtt: {
        url: '',
        username: '',
        password: '',
        tcpPort: 18830,
        dynsec: false,
        publicUrls: [],
        httpAuthSecret: '',
        instanceUrls: [],
      },
      geocoder: { provider: 'none', url: '', key: '', timeoutMs: 5000 },
      weather: {
        provider: 'none',
        url: 'https://api.open-meteo.com',
        geocodingUrl: 'https://geocoding-api.open-meteo.com',
        timeoutMs: 5000,
      },
      shares: { provider: 'none', url: '', key: '', timeoutMs: 5000 },
      defaultTimeZone: 'Asia/Shanghai',
      messageLanguage: 'zh-CN',
      storage: { kind: 'local', dir: '/srv/app/data/files' },
      playsRetentionDays: 400,
      demoPlayers: 4,
      payments: {
        notifyBaseUrl: 'http://localhost:8080',
        returnBaseUrl: 'http://localhost:8080',
        wechat: null,
        alipay: null,
        offlineAccount: null,
      },
      esign: { url: '', token: '', timeoutMs: 10_000, maxAttempts: 5 },
    });
  });

  it('reads MESSAGE_LANGUAGE, and refuses a language the product is not written in', () => {
    expect(loadConfig({ MESSAGE_LANGUAGE: 'ja' }).messageLanguage).toBe('ja');
    expect(() => loadConfig({ MESSAGE_LANGUAGE: 'fr-FR' })).toThrow(/MESSAGE_LANGUAGE/);
  });

  it('reads DEFAULT_TIME_ZONE, and refuses a name that is not an IANA zone', () => {
    expect(loadConfig({ DEFAULT_TIME_ZONE: 'Europe/Berlin' }).defaultTimeZone).toBe('Europe/Berlin');
    expect(() => loadConfig({ DEFAULT_TIME_ZONE: 'Mars/Olympus' })).toThrow(/DEFAULT_TIME_ZONE/);
  });

  it('reads the e-signature provider settings, and refuses a URL that is not http(s)', () => {
    expect(
      loadConfig({
        ESIGN_URL: 'https://esign.example.com/api/',
        ESIGN_TOKEN: 't0k',
        ESIGN_TIMEOUT_MS: '3000',
        ESIGN_MAX_ATTEMPTS: '8',
      }).esign,
    ).toEqual({ url: 'https://esign.example.com/api', token: 't0k', timeoutMs: 3000, maxAttempts: 8 });
    expect(() => loadConfig({ ESIGN_URL: 'ftp://esign.example.com' })).toThrow(/ESIGN_URL/);
    expect(() => loadConfig({ ESIGN_TIMEOUT_MS: 'soon' })).toThrow(/ESIGN_TIMEOUT_MS/);
  });

  it('reads the offline bank account for /payUnderline: all three settings or none', () => {
    const account = {
      OFFLINE_PAY_ACCOUNT_NAME: 'Marquee Media Ltd.',
      OFFLINE_PAY_BANK: 'Bank of Example, Shanghai Branch',
      OFFLINE_PAY_ACCOUNT_NO: '6222 0000 1234 5678',
    };
    expect(loadConfig(account).payments.offlineAccount).toEqual({
      accountName: 'Marquee Media Ltd.',
      bankName: 'Bank of Example, Shanghai Branch',
      accountNo: '6222 0000 1234 5678',
    });
    expect(() => loadConfig({ OFFLINE_PAY_BANK: 'Bank of Example' })).toThrow(/OFFLINE_PAY_ACCOUNT_NAME/);
  });

  it('reads the plays retention, and refuses one shorter than an upload may reach back', () => {
    expect(loadConfig({ PLAYS_RETENTION_DAYS: '90' }).playsRetentionDays).toBe(90);
    expect(loadConfig({ PLAYS_RETENTION_DAYS: '' }).playsRetentionDays).toBe(400);
    expect(() => loadConfig({ PLAYS_RETENTION_DAYS: '30' })).toThrow(/PLAYS_RETENTION_DAYS must be .* from 62/);
    expect(() => loadConfig({ PLAYS_RETENTION_DAYS: '100.5' })).toThrow(/PLAYS_RETENTION_DAYS/);
    expect(() => loadConfig({ PLAYS_RETENTION_DAYS: 'forever' })).toThrow(/PLAYS_RETENTION_DAYS/);
  });

  it('reads the device broker settings', () => {
    expect(loadConfig({ MQTT_TCP_PORT: 'off' }).mqtt.tcpPort).toBe(0);
    expect(loadConfig({ MQTT_TCP_PORT: '0' }).mqtt.tcpPort).toBe(0);
    expect(
      loadConfig({
        MQTT_URL: 'mqtt://127.0.0.1:1883',
        MQTT_USERNAME: 'server',
        MQTT_PASSWORD: 'pw',
        MQTT_DYNSEC: '1',
        MQTT_PUBLIC_URLS: 'wss://m.example.com/mqtt, mqtt://m.example.com:1883',
        MQTT_HTTP_AUTH_SECRET: 's',
        MQTT_INSTANCE_URLS: 'ws://10.0.0.5:8080/mqtt,mqtt://10.0.0.5:18830',
      }).mqtt,
    ).toEqual({
      url: 'mqtt://127.0.0.1:1883',
      username: 'server',
      password: 'pw',
      tcpPort: 18830,
      dynsec: true,
      publicUrls: ['wss://m.example.com/mqtt', 'mqtt://m.example.com:1883'],
      httpAuthSecret: 's',
      instanceUrls: ['ws://10.0.0.5:8080/mqtt', 'mqtt://10.0.0.5:18830'],
    });
  });

  it('reads the job queue and shutdown settings, and refuses a JOBS that is not on or off', () => {
    const config = loadConfig(
      {
        JOBS: 'off',
        JOB_SCHEDULES: 'off',
        JOB_POLL_SECONDS: '1',
        JOB_MAINTENANCE_SECONDS: '5',
        JOB_POOL_SIZE: '2',
        SHUTDOWN_TIMEOUT_SECONDS: '3',
      },
      '/srv/app',
    );
    expect(config.jobs).toEqual({
      enabled: false,
      schedules: false,
      pollSeconds: 1,
      maintenanceSeconds: 5,
      poolSize: 2,
    });
    expect(config.shutdownTimeoutMs).toBe(3000);
    expect(() => loadConfig({ JOBS: 'maybe' }, '/srv/app')).toThrow(/JOBS must be on or off/);
    expect(loadConfig({}, '/srv/app').jobs.schedules).toBe(true);
  });

  it('reads the environment', () => {
    const config = loadConfig(
      {
        PORT: '18080',
        HOST: '127.0.0.1',
        DATA_DIR: 'var/data',
        DATABASE_URL: 'postgres://db/marquee',
        WEB_DIST: '/opt/web',
        LOG_LEVEL: 'warn',
        SESSION_IDLE_HOURS: '2',
        SESSION_MAX_DAYS: '1',
        TRUST_PROXY: 'true',
      },
      '/srv/app',
    );
    expect(config).toMatchObject({
      port: 18080,
      host: '127.0.0.1',
      dataDir: '/srv/app/var/data',
      databaseUrl: 'postgres://db/marquee',
      webDist: '/opt/web',
      logLevel: 'warn',
      sessionIdleHours: 2,
      sessionMaxDays: 1,
      trustProxy: true,
    });
  });

  it('refuses values that would fail later', () => {
    expect(() => loadConfig({ PORT: 'http' })).toThrow(/PORT/);
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
    expect(() => loadConfig({ SESSION_IDLE_HOURS: '-1' })).toThrow(/SESSION_IDLE_HOURS/);
    expect(() => loadConfig({ MQTT_TCP_PORT: '99999' })).toThrow(/MQTT_TCP_PORT/);
    expect(() => loadConfig({ MQTT_URL: 'http://broker' })).toThrow(/MQTT_URL/);
  });

  it('reads the S3 storage settings, and refuses incomplete ones', () => {
    const s3 = { STORAGE: 's3', S3_BUCKET: 'marquee-files', S3_ACCESS_KEY: 'ak', S3_SECRET_KEY: 'sk' };
    expect(loadConfig({ ...s3, S3_ENDPOINT: 'http://minio:9000/' }, '/srv/app').storage).toEqual({
      kind: 's3',
      endpoint: 'http://minio:9000',
      bucket: 'marquee-files',
      accessKey: 'ak',
      secretKey: 'sk',
      region: 'us-east-1',
      forcePathStyle: true,
      publicEndpoint: '',
    });
    // AWS itself: virtual-hosted style unless asked otherwise.
    expect(loadConfig({ ...s3, S3_REGION: 'eu-west-1' }).storage).toMatchObject({
      endpoint: '',
      region: 'eu-west-1',
      forcePathStyle: false,
    });
    expect(
      loadConfig({ ...s3, S3_ENDPOINT: 'https://oss.example.com', S3_FORCE_PATH_STYLE: 'off' }).storage,
    ).toMatchObject({ forcePathStyle: false });
    expect(() => loadConfig({ STORAGE: 'ftp' })).toThrow(/STORAGE/);
    expect(() => loadConfig({ ...s3, S3_BUCKET: '' })).toThrow(/S3_BUCKET/);
    expect(() => loadConfig({ ...s3, S3_SECRET_KEY: '' })).toThrow(/S3_SECRET_KEY/);
    expect(() => loadConfig({ ...s3, S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT/);
  });
});
