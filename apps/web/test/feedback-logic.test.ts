import { describe, expect, it } from 'vitest';
import { feedbackCount, shotProblem } from '../src/features/feedback/feedbackUpload';
import en from '../src/i18n/locales/en-US/feedback.json';
import ja from '../src/i18n/locales/ja/feedback.json';
import zh from '../src/i18n/locales/zh-CN/feedback.json';

describe('feedback (issue 31, /my/help)', () => {
  it('counts characters as a reader does: 500 Chinese characters fit, 501 do not', () => {
    expect(feedbackCount('字'.repeat(500))).toEqual({ used: 500, over: false, empty: false });
    expect(feedbackCount('字'.repeat(501)).over).toBe(true);
    // An emoji is one character, not two UTF-16 units.
    expect(feedbackCount('😀'.repeat(500)).over).toBe(false);
    expect(feedbackCount('   ').empty).toBe(true);
  });

  it('refuses a screenshot of another type or over 10 MB before asking the server', () => {
    expect(shotProblem({ type: 'image/png', size: 1000 })).toBeNull();
    expect(shotProblem({ type: 'application/pdf', size: 1000 })).toBe('type');
    expect(shotProblem({ type: 'image/jpeg', size: 11 * 1024 * 1024 })).toBe('size');
  });

  it('has every text in the three languages', () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(zh).sort());
    expect(Object.keys(ja).sort()).toEqual(Object.keys(zh).sort());
  });
});
