import { useEffect, useState } from 'react';
import { t } from './i18n';
import { isAlarmKey } from './logic/alarms';
import { player } from './runtime';

/** How long the screen confirms a raised alarm. */
const CONFIRM_MS = 8_000;

/**
 * The browser player's alarm button where configured (`?alarmButton=1` once; remembered on the
 * screen, `?alarmButton=0` hides it again), the alarm keys (F9, Alt+A) always, and a short
 * confirmation on screen once an alarm is raised (docs/device-protocol.md 2.10).
 */
function buttonConfigured(): boolean {
  const query = new URLSearchParams(location.search).get('alarmButton');
  try {
    if (query !== null) localStorage.setItem('marquee.alarmButton', query === '1' ? '1' : '0');
    return (query ?? localStorage.getItem('marquee.alarmButton')) === '1';
  } catch {
    return query === '1';
  }
}

export function AlarmControls({ raisedAt, pending }: { raisedAt: number | null; pending: number }) {
  const [button] = useState(buttonConfigured);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isAlarmKey(event) || event.repeat) return;
      event.preventDefault();
      void player.raiseAlarm();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => {
    if (!raisedAt) return;
    setNow(Date.now());
    const timer = setTimeout(() => setNow(Date.now()), CONFIRM_MS);
    return () => clearTimeout(timer);
  }, [raisedAt]);
  const confirming = raisedAt !== null && now - raisedAt < CONFIRM_MS;
  return (
    <>
      {button && (
        <button
          type="button"
          className="alarm-button"
          data-testid="alarm-button"
          aria-label={t('alarmRaise')}
          onClick={() => void player.raiseAlarm()}
        >
          {t('alarmRaise')}
        </button>
      )}
      {confirming && (
        <div className="alarm-confirm" data-testid="alarm-raised" role="status">
          {pending > 0 ? t('alarmSending') : t('alarmSent')}
        </div>
      )}
    </>
  );
}
