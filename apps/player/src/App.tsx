import QRCode from 'qrcode';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { AlarmControls } from './AlarmButton';
import { locale, t } from './i18n';
import { itemsToPlay } from './logic/ads';
import { fallbackScreen } from './logic/licence';
import { player } from './runtime';
import { Stage } from './Stage';
import { StatusPanel } from './StatusPanel';
import { WallStage } from './WallStage';
import { Watermark } from './Watermark';

function usePlayer() {
  return useSyncExternalStore(player.subscribe, player.getView);
}

function Pairing() {
  const view = usePlayer();
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    if (!view.pairing) return;
    void QRCode.toDataURL(view.pairing.qr, { margin: 1, width: 280 }).then(setQr);
  }, [view.pairing]);
  return (
    <div className="screen light" data-testid="pairing">
      <div className="card">
        <h1>{t('pairTitle')}</h1>
        {view.pairing ? (
          <>
            <div className="code" data-testid="pairing-code">
              {view.pairing.code}
            </div>
            {qr && <img className="qr" src={qr} alt="QR" />}
            <p>{t('pairHint')}</p>
            <p className="muted">
              {t('pairExpires', { time: new Date(view.pairing.expiresAt).toLocaleTimeString(locale) })}
            </p>
          </>
        ) : (
          <p>{view.pairingRetrySec !== null ? t('pairFailed', { sec: view.pairingRetrySec }) : t('pairStarting')}</p>
        )}
      </div>
    </div>
  );
}

function Message({ title, hint, testId }: { title: string; hint: string; testId: string }) {
  return (
    <div className="screen light" data-testid={testId}>
      <div className="card">
        <h1>{title}</h1>
        <p>{hint}</p>
      </div>
    </div>
  );
}

function Playing() {
  const view = usePlayer();
  const manifest = view.manifest;
  // Re-evaluated each second (view.now) so schedules start and stop on time. A wall's tiles
  // choose by the shared clock, without the opening ads and per-day caps that each tile would
  // count from its own start (docs/device-protocol.md 2.7.3): all tiles must choose alike.
  const wall = manifest?.wall;
  const now = wall ? new Date(player.clock.now()) : new Date(view.now);
  // RTB turns are instants of the server's clock (docs/device-protocol.md 2.7.2).
  const serverNow = player.clock.now();
  const items = manifest
    ? itemsToPlay(
        manifest,
        now,
        wall
          ? { startedAt: 0, playedToday: new Map(), serverNow }
          : { startedAt: player.startedAt, playedToday: player.adPlays.today(now), serverNow },
      ).items
    : [];
  if (!manifest) {
    if (view.contentError) {
      return (
        <Message title={t('contentError')} hint={t('contentErrorHint', { reason: view.contentError })} testId="error" />
      );
    }
    return (
      <Message
        title={t('loading')}
        hint={view.pending ? `${view.pending.version.slice(0, 12)}…` : ''}
        testId="loading"
      />
    );
  }
  // An expired licence (the manifest has no items) says why, until a manifest brings items again.
  const fallback = fallbackScreen(manifest, items.length);
  if (fallback === 'expired') return <Message title={t('expired')} hint={t('expiredHint')} testId="expired" />;
  if (fallback === 'nothing') return <Message title={t('nothing')} hint={t('nothingHint')} testId="nothing" />;
  if (wall) return <WallStage key={manifest.version} manifest={manifest} items={items} wall={wall} />;
  return <Stage manifest={manifest} items={items} serverNow={serverNow} />;
}

export function App() {
  const view = usePlayer();
  const [status, setStatus] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'i' || event.key === 'I') setStatus((s) => !s);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const lit = view.screenOn && view.powerOn;
  return (
    <div className="root" style={{ filter: `brightness(${Math.max(5, view.brightness)}%)` }}>
      {view.phase === 'pairing' ? <Pairing /> : view.phase === 'running' ? <Playing /> : null}
      {view.phase === 'running' && <Watermark manifest={view.manifest} />}
      {!lit && <div className="blackout" data-testid="blackout" />}
      {view.phase === 'running' && <AlarmControls raisedAt={view.alarmRaisedAt} pending={view.alarmsPending} />}
      <button type="button" className="corner" aria-label="status" onClick={() => setStatus((s) => !s)} />
      {status && <StatusPanel view={view} onClose={() => setStatus(false)} />}
    </div>
  );
}
