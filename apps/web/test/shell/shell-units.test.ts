import { describe, expect, it } from 'vitest';
import { greetingText } from '../../src/shell/header/Greeting';
import { sanitizeNoticeHtml } from '../../src/shell/header/NoticeDialog';
import { isPendingMonitorApply } from '../../src/shell/header/notice';
import { wheelScrollStep } from '../../src/shell/TabBar';

const t = (key: string, options?: Record<string, unknown>) => (options ? `${key}:${JSON.stringify(options)}` : key);

describe('tab strip wheel', () => {
  it('scrolls by a quarter of the wheel delta', () => {
    expect(wheelScrollStep({ deltaX: 0, deltaY: 120, deltaMode: 0 })).toBe(30);
    expect(wheelScrollStep({ deltaX: 0, deltaY: -100, deltaMode: 0 })).toBe(-25);
    expect(wheelScrollStep({ deltaX: 80, deltaY: 10, deltaMode: 0 })).toBe(20);
    // Line mode (Firefox): 3 lines of 40 px.
    expect(wheelScrollStep({ deltaX: 0, deltaY: 3, deltaMode: 1 })).toBe(30);
  });
});

describe('greeting', () => {
  it('uses the fixed text for the provider own users, else the stored greeting', () => {
    expect(greetingText({ isYXF: true, welcomeSpeech: 'Hi', userName: 'A' }, t)).toBe('header.welcome');
    expect(greetingText({ isYXF: false, welcomeSpeech: 'Hi there', userName: 'A' }, t)).toBe('Hi there');
    expect(greetingText({ isYXF: false, welcomeSpeech: '  ', userName: 'Ann' }, t)).toBe('header.hello:{"name":"Ann"}');
  });
});

describe('notices', () => {
  it('answers monitor applications only on pending system notices', () => {
    expect(isPendingMonitorApply({ type: 'system', monitorStatus: 'pending' })).toBe(true);
    expect(isPendingMonitorApply({ type: 'system', monitorStatus: 'agreed' })).toBe(false);
    expect(isPendingMonitorApply({ type: 'general', monitorStatus: 'pending' })).toBe(false);
  });

  it('sanitises notice HTML', () => {
    const html = sanitizeNoticeHtml(
      '<p onclick="x()">Hi<script>alert(1)</script><img src="a.png" onerror="x()"><style>*{}</style><a href="javascript:x()">l</a></p>',
    );
    expect(html).toContain('<img src="a.png">');
    expect(html).not.toMatch(/script|onclick|onerror|style|javascript:/);
  });
});
