import { locale, t } from './i18n';
import { type PlayerView, player } from './runtime';

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

const time = (ms: number | null) => (ms ? new Date(ms).toLocaleTimeString(locale) : t('never'));

/** The status overlay (key `i` or the top-right corner): what an operator on site needs. */
export function StatusPanel({ view, onClose }: { view: PlayerView; onClose: () => void }) {
  const progress = [...player.content.progress.values()];
  return (
    <div className="status" data-testid="status">
      <h2>{t('status')}</h2>
      <dl>
        <dt>{t('device')}</dt>
        <dd>
          {view.deviceName ?? '—'} <span className="muted">{view.deviceId ?? ''}</span>
        </dd>
        <dt>{t('connection')}</dt>
        <dd>{view.online ? t('online') : t('offline')}</dd>
        <dt>{t('lastHeartbeat')}</dt>
        <dd>{time(view.lastHeartbeat)}</dd>
        <dt>{t('manifestVersion')}</dt>
        <dd data-testid="manifest-version">{view.manifest?.version.slice(0, 12) ?? t('none')}</dd>
        {view.pending && (
          <>
            <dt>{t('pendingVersion')}</dt>
            <dd>{view.pending.version.slice(0, 12)}</dd>
          </>
        )}
        <dt>{t('cacheUse')}</dt>
        <dd>{bytes(view.cacheBytes)}</dd>
        <dt>{t('downloads')}</dt>
        <dd>
          {progress.length === 0
            ? t('none')
            : progress.map((p) => (
                <div key={p.sha256}>
                  {p.materialId.slice(0, 8)} {Math.round((p.loaded / Math.max(1, p.size)) * 100)}%
                  {p.error ? ` ✕ ${p.error}` : ''}
                </div>
              ))}
        </dd>
        <dt>{t('playsPending')}</dt>
        <dd data-testid="plays-pending">{view.playsPending}</dd>
        <dt>{t('commands')}</dt>
        <dd>
          {view.commands.length === 0
            ? t('none')
            : view.commands.map((c) => (
                <div key={c.id}>
                  {time(c.at)} {c.kind}: {c.result}
                </div>
              ))}
        </dd>
      </dl>
      <button type="button" onClick={onClose}>
        {t('close')}
      </button>
    </div>
  );
}
