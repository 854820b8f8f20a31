import ReloadOutlined from '@ant-design/icons-svg/es/asn/ReloadOutlined';
import { ErrorCode, type OAuthProvider } from '@marquee/protocol';
import QRCode from 'qrcode';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError, call } from '../../api/client';
import { SvgIcon } from '../../components/plain/SvgIcon';
import { finishLogin } from './plainForm';
import './auth.css';

/** How often the console asks whether the scan happened. */
export const POLL_MS = 2000;

type View =
  | { kind: 'loading' }
  | { kind: 'qr'; qr: string; url: string; note?: 'scanned' }
  | { kind: 'message'; tone: 'error' | 'info'; text: string; register?: boolean; retry?: boolean };

export interface ScanLoginProps {
  provider: OAuthProvider;
  /** 'login' (default) opens a session; 'bind' binds the identity to the signed-in account. */
  mode?: 'login' | 'bind';
  /** Bind mode: called after the binding was saved. */
  onBound?: () => void;
}

/**
 * WeChat / DingTalk scan (spec section 2 'Login'): the server starts an OAuth2 state and
 * answers the provider's authorization URL, shown here as a real QR code. The user scans it
 * with the phone; the provider redirects the phone to the server's callback, which settles
 * the state; this component polls the state and completes the login (or the binding) with
 * one single-use call. Plain markup: it is part of the login route (loaded lazily with the
 * QR renderer when a scan tab opens).
 */
export default function ScanLogin({ provider, mode = 'login', onBound }: ScanLoginProps) {
  const { t } = useTranslation(['login', 'errors']);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [view, setView] = useState<View>({ kind: 'loading' });
  const [round, setRound] = useState(0);
  const live = useRef(true);

  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  const fail = useCallback(
    (err: unknown) => {
      if (!live.current) return;
      if (err instanceof ApiError && err.code === ErrorCode.FEATURE_NOT_ONLINE) {
        setView({ kind: 'message', tone: 'info', text: t('notOnline', { feature: t(`tab.${provider}`) }) });
      } else if (err instanceof ApiError && err.code === ErrorCode.NOT_REGISTERED) {
        setView({ kind: 'message', tone: 'error', text: err.message, register: true, retry: true });
      } else {
        const text = err instanceof ApiError ? err.message : t('errors:operationFailed');
        setView({ kind: 'message', tone: 'error', text, retry: true });
      }
    },
    [provider, t],
  );

  // The scan's async steps read the latest callbacks, not the ones of the first render.
  const latest = useRef({ t, navigate, params, onBound, fail });
  latest.current = { t, navigate, params, onBound, fail };

  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` restarts the scan (refresh); callbacks come from `latest`
  useEffect(() => {
    const { t, navigate, params, onBound, fail } = latest.current;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const stop = () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
    void (async () => {
      setView({ kind: 'loading' });
      try {
        const start =
          mode === 'bind'
            ? await call('oauthBindStart', { provider }, { silent: true })
            : await call('oauthStart', { provider }, { silent: true });
        const svg = await QRCode.toString(start.authorizeUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
        if (stopped) return;
        const qr = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
        setView({ kind: 'qr', qr, url: start.authorizeUrl });
        const poll = async () => {
          if (stopped) return;
          try {
            const { status } = await call('oauthPoll', { state: start.state }, { silent: true });
            if (stopped) return;
            if (status === 'pending') {
              timer = setTimeout(poll, POLL_MS);
            } else if (status === 'ready' && mode === 'login') {
              const res = await call('oauthLogin', { state: start.state }, { silent: true });
              stop();
              finishLogin(res, t, navigate, params.get('redirect'));
            } else if (status === 'scanned' && mode === 'bind') {
              await call('oauthBind', { state: start.state }, { silent: true });
              stop();
              onBound?.();
            } else if (status === 'unbound') {
              stop();
              setView({ kind: 'message', tone: 'error', text: t('scan.notRegistered'), register: true, retry: true });
            } else if (status === 'conflict') {
              stop();
              setView({ kind: 'message', tone: 'error', text: t('scan.conflict'), retry: true });
            } else if (status === 'expired') {
              stop();
              setView({ kind: 'message', tone: 'info', text: t('scan.expired'), retry: true });
            } else {
              stop();
              setView({ kind: 'message', tone: 'error', text: t('scan.failed'), retry: true });
            }
          } catch (err) {
            stop();
            fail(err);
          }
        };
        timer = setTimeout(poll, POLL_MS);
      } catch (err) {
        fail(err);
      }
    })();
    return stop;
  }, [provider, mode, round]);

  const retry = (
    <button type="button" className="mq-button" onClick={() => setRound((r) => r + 1)} data-testid="scan-refresh">
      <SvgIcon icon={ReloadOutlined} />
      {t('scan.refresh')}
    </button>
  );

  return (
    <div className="mq-scan" data-testid={`scan-${provider}`} aria-live="polite">
      {view.kind === 'loading' ? (
        <div className="mq-scan-qr mq-scan-loading" data-testid="scan-loading">
          <span className="mq-spinner" aria-hidden />
        </div>
      ) : null}
      {view.kind === 'qr' ? (
        <>
          <img
            className="mq-scan-qr"
            src={view.qr}
            alt={t('scan.qrAlt', { provider: t(`tab.${provider}`) })}
            data-testid="scan-qr"
            data-url={view.url}
          />
          <p className="mq-scan-hint">{t(`scan.hint.${provider}`)}</p>
          <a className="mq-scan-open" href={view.url} target="_blank" rel="noopener noreferrer" data-testid="scan-open">
            {t('scan.open')}
          </a>
        </>
      ) : null}
      {view.kind === 'message' ? (
        <div
          className={`mq-scan-message mq-scan-${view.tone}`}
          role={view.tone === 'error' ? 'alert' : 'status'}
          data-testid="scan-message"
        >
          <p>{view.text}</p>
          <div className="mq-scan-actions">
            {view.retry ? retry : null}
            {view.register ? (
              <Link to="/login/register" className="mq-button mq-button-primary" data-testid="scan-register">
                {t('register')}
              </Link>
            ) : null}
          </div>
        </div>
      ) : null}
    </div>
  );
}
