import { describe, expect, it } from 'vitest';
import { apiBase, type HostBases, hostEnvironment } from '../src/api/hosts';
import { buttonConfig } from '../src/app/AntdRoot';
import { phrases } from '../src/components/PhraseText';
import { canPrefetch, prefetch } from '../src/components/prefetch';

describe('link prefetch (spec section 9: skipped on 2g or save-data)', () => {
  it('prefetches on fast connections and when the browser says nothing', () => {
    expect(canPrefetch(undefined)).toBe(true);
    expect(canPrefetch({})).toBe(true);
    expect(canPrefetch({ effectiveType: '4g' })).toBe(true);
    expect(canPrefetch({ effectiveType: '3g', saveData: false })).toBe(true);
  });
  it('skips 2g, slow-2g and save-data', () => {
    expect(canPrefetch({ effectiveType: '2g' })).toBe(false);
    expect(canPrefetch({ effectiveType: 'slow-2g' })).toBe(false);
    expect(canPrefetch({ effectiveType: '4g', saveData: true })).toBe(false);
  });
  it('starts a loader once, and never on save-data', async () => {
    let calls = 0;
    const load = async () => {
      calls++;
    };
    prefetch(load, { saveData: true });
    expect(calls).toBe(0);
    prefetch(load, { effectiveType: '4g' });
    prefetch(load, { effectiveType: '4g' });
    expect(calls).toBe(1);
  });
});

describe('API hosts (spec sections 7 and 9: test prefix on local, dev-, test-, uat- hosts)', () => {
  it('chooses the test environment for local hosts and dev-/test-/uat- prefixes', () => {
    for (const host of [
      'localhost',
      '127.0.0.1',
      '::1',
      'app.localhost',
      'dev-console.example.com',
      'test-a.b',
      'UAT-x.example.com',
    ])
      expect(hostEnvironment(host), host).toBe('test');
    for (const host of ['console.example.com', 'developer.example.com', 'mytest-a.example.com', 'uat.example.com'])
      expect(hostEnvironment(host), host).toBe('production');
  });
  it('selects the new or old host of the environment', () => {
    const bases: HostBases = {
      production: { new: 'https://api.example.com/', old: 'https://old.example.com' },
      test: { new: 'https://test-api.example.com', old: 'https://test-old.example.com' },
    };
    expect(apiBase('new', 'console.example.com', bases)).toBe('https://api.example.com');
    expect(apiBase('old', 'console.example.com', bases)).toBe('https://old.example.com');
    expect(apiBase('new', 'uat-console.example.com', bases)).toBe('https://test-api.example.com');
    expect(apiBase('old', 'localhost', bases)).toBe('https://test-old.example.com');
  });
  it('defaults to the page origin (the server serves the console and the API)', () => {
    expect(apiBase('new', 'localhost')).toBe('');
  });
});

describe('CJK typesetting', () => {
  it('inserts the space between two characters in buttons in Chinese only', () => {
    expect(buttonConfig('zh-CN').autoInsertSpace).toBe(true);
    expect(buttonConfig('ja').autoInsertSpace).toBe(false);
    expect(buttonConfig('en-US').autoInsertSpace).toBe(false);
  });
  it('splits Japanese menu labels into words, never mid-word', () => {
    expect(phrases('テンプレート管理', 'ja')).toEqual(['テンプレート', '管理']);
    expect(phrases('アプリマーケット', 'ja')).toEqual(['アプリ', 'マーケット']);
  });
});
