import { OAUTH_PROVIDERS, type OAuthProvider } from '@marquee/protocol';
import type { FastifyInstance } from 'fastify';
import { completeCallback, type PollStatus } from './service.js';

type Lang = 'zh-CN' | 'en-US' | 'ja';

const TEXTS: Record<Lang, Partial<Record<PollStatus, string>> & { title: string; other: string }> = {
  'zh-CN': {
    title: 'Marquee 扫码登录',
    ready: '扫码成功，请回到电脑上继续。',
    scanned: '扫码成功，请回到电脑上完成绑定。',
    unbound: '该微信或钉钉账号未注册，请先注册。',
    conflict: '该微信或钉钉账号已绑定其他账号。',
    expired: '二维码已失效，请在电脑上刷新后重新扫码。',
    other: '授权失败，请在电脑上重新扫码。',
  },
  'en-US': {
    title: 'Marquee scan login',
    ready: 'Scan confirmed. Please continue on your computer.',
    scanned: 'Scan confirmed. Please finish binding on your computer.',
    unbound: 'This WeChat or DingTalk account is not registered. Please register first.',
    conflict: 'This WeChat or DingTalk account is already bound to another account.',
    expired: 'This QR code has expired. Refresh it on your computer and scan again.',
    other: 'Authorization failed. Please scan again on your computer.',
  },
  ja: {
    title: 'Marquee スキャンログイン',
    ready: 'スキャンが完了しました。パソコンで続けてください。',
    scanned: 'スキャンが完了しました。パソコンで連携を完了してください。',
    unbound: 'この WeChat または DingTalk アカウントは登録されていません。先に登録してください。',
    conflict: 'この WeChat または DingTalk アカウントは別のアカウントに連携済みです。',
    expired: 'QR コードの有効期限が切れました。パソコンで更新してもう一度スキャンしてください。',
    other: '認証に失敗しました。パソコンでもう一度スキャンしてください。',
  },
};

function languageOf(header: string | undefined): Lang {
  const value = (header ?? '').toLowerCase();
  const first = value.split(',')[0] ?? '';
  if (first.startsWith('ja')) return 'ja';
  if (first.startsWith('en')) return 'en-US';
  return 'zh-CN';
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page the phone's browser shows after the provider's redirect. */
export function callbackPage(status: PollStatus, lang: Lang): string {
  const t = TEXTS[lang];
  const text = t[status] ?? t.other;
  const ok = status === 'ready' || status === 'scanned';
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(t.title)}</title><style>body{font-family:system-ui,sans-serif;display:flex;min-height:100vh;margin:0;align-items:center;justify-content:center;background:#f5f7fa}main{background:#fff;border-radius:8px;padding:32px;max-width:360px;text-align:center;box-shadow:0 2px 12px rgba(0,0,0,.08)}p{font-size:16px;color:${ok ? '#389e0d' : '#cf1322'}}</style></head><body><main data-status="${status}"><h1>${escapeHtml(t.title)}</h1><p>${escapeHtml(text)}</p></main></body></html>`;
}

/**
 * GET /api/oauth/<provider>/callback?code&state: the provider's redirect after the user
 * scanned and agreed. Settles the state (see service.completeCallback) and shows a short page;
 * the console that shows the QR code learns the outcome by polling oauth.poll.
 */
export async function registerOAuthCallback(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { provider: string }; Querystring: Record<string, string | undefined> }>(
    '/api/oauth/:provider/callback',
    async (request, reply) => {
      const lang = languageOf(request.headers['accept-language']);
      const provider = request.params.provider as OAuthProvider;
      const status = (OAUTH_PROVIDERS as readonly string[]).includes(provider)
        ? await completeCallback(app.services, provider, request.query ?? {}, request.log)
        : 'failed';
      return reply
        .header('cache-control', 'no-store')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .type('text/html; charset=utf-8')
        .send(callbackPage(status, lang));
    },
  );
}
