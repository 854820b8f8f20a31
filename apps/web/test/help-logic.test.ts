import { describe, expect, it } from 'vitest';
import { bodyIsEmpty, imageHtml, imageProblem, untitled, versionsToSave } from '../src/features/help/helpLogic';

describe('help documents (issue 31, /help/helpFile)', () => {
  it('saves zh-CN always and the other languages only when written', () => {
    expect(
      versionsToSave({
        ja: { title: '', body: '<p><br></p>' },
        'zh-CN': { title: ' 配对设备 ', body: '<p>打开播放器</p>' },
        'en-US': { title: 'Pairing', body: '' },
      }),
    ).toEqual([
      { language: 'zh-CN', title: '配对设备', body: '<p>打开播放器</p>' },
      { language: 'en-US', title: 'Pairing', body: '' },
    ]);
  });

  it('asks for the title of zh-CN and of any other language with a body', () => {
    expect(untitled({})).toEqual(['zh-CN']);
    expect(untitled({ 'zh-CN': { title: 'x', body: '' }, ja: { title: '', body: '<p>本文</p>' } })).toEqual(['ja']);
    expect(untitled({ 'zh-CN': { title: 'x', body: '' }, 'en-US': { title: '', body: '<br>' } })).toEqual([]);
  });

  it('counts a picture as content and markup alone as empty', () => {
    expect(bodyIsEmpty('<p>&nbsp;</p>')).toBe(true);
    expect(bodyIsEmpty('<p><img data-help-image="a"></p>')).toBe(false);
  });

  it('names an uploaded picture by id, escaping what it quotes', () => {
    expect(imageHtml({ id: 'i1', url: '/files/x?a=1&b="2"' }, 'a<b>.png')).toBe(
      '<img src="/files/x?a=1&amp;b=&quot;2&quot;" data-help-image="i1" alt="a&lt;b>.png">',
    );
  });

  it('refuses a picture of another type or over 10 MB before asking the server', () => {
    expect(imageProblem({ type: 'image/gif', size: 1000 })).toBeNull();
    expect(imageProblem({ type: 'image/svg+xml', size: 1000 })).toBe('type');
    expect(imageProblem({ type: 'image/png', size: 11 * 1024 * 1024 })).toBe('size');
  });
});
