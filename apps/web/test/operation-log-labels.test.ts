import { beforeAll, describe, expect, it } from 'vitest';
import { actionLabel, moduleLabel, readableCode } from '../src/features/operationLog/labels';
import { i18n, initI18n } from '../src/i18n';

beforeAll(async () => {
  await initI18n('en-US');
});

describe('operation-log codes', () => {
  it('translates known module and action codes', () => {
    const t = i18n.t.bind(i18n);
    expect(moduleLabel(t, 'advertiser')).toBe('Advertisers');
    expect(actionLabel(t, 'login')).toBe('Log in');
  });

  it('falls back to a readable form of unknown codes', () => {
    const t = i18n.t.bind(i18n);
    expect(moduleLabel(t, 'deviceGroup')).toBe('Device group');
    expect(actionLabel(t, 'batch_set_roles')).toBe('Batch set roles');
    expect(readableCode('')).toBe('');
  });
});
