import { OPERATION_LOG_WORDS } from '@marquee/protocol';
import { describe, expect, it } from 'vitest';
import { actionLabel, moduleLabel, targetLabel } from '../src/features/operationLog/labels';
import glossary from '../src/i18n/glossary.json';

describe('operation-log codes (issue 25: no internal word reaches a reader)', () => {
  it('shows the rows of the issue in each language', () => {
    expect([moduleLabel('zh-CN', 'ad'), actionLabel('zh-CN', 'auditPass'), targetLabel('zh-CN', 'ref:5')]).toEqual([
      '广告',
      '审核通过',
      '广告',
    ]);
    expect([
      moduleLabel('ja', 'material'),
      actionLabel('ja', 'uploadApply'),
      targetLabel('ja', 'materialUpload'),
    ]).toEqual(['素材', 'アップロードの申請', '素材のアップロード']);
    expect(actionLabel('en-US', 'folderCreate')).toBe('Create folder');
    expect(moduleLabel('en-US', 'advertiser')).toBe('Advertisers');
    expect(actionLabel('en-US', 'login')).toBe('Log in');
  });

  it('falls back to a readable form of a code without words', () => {
    expect(moduleLabel('en-US', 'someModule')).toBe('Some module');
    expect(actionLabel('ja', 'batch_set_roles')).toBe('Batch set roles');
  });

  it("keeps to the glossary's terms in every language", () => {
    const problems: string[] = [];
    for (const [kind, words] of Object.entries(OPERATION_LOG_WORDS)) {
      for (const [code, byLanguage] of Object.entries(words)) {
        for (const term of glossary.terms) {
          for (const language of ['zh-CN', 'en-US', 'ja'] as const) {
            const text = (byLanguage as Record<string, string>)[language];
            for (const avoid of term[language].avoid) {
              if (new RegExp(avoid).test(text)) problems.push(`${kind}.${code} (${language}): '${text}' has ${avoid}`);
            }
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
