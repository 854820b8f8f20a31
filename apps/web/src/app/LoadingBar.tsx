import { useEffect, useState } from 'react';
import { tr } from '../i18n';

/** Spec section 9: the bar shows only when loading lasts over 200 ms, and gives up after 5 s. */
export const LOADING_BAR_DELAY_MS = 200;
export const LOADING_BAR_MAX_MS = 5000;
const FADE_MS = 300;

type Phase = 'idle' | 'running' | 'done';

/** A thin bar at the top of the window while a navigation loads (route chunks, loaders). */
export function LoadingBar({ active }: { active: boolean }) {
  const [phase, setPhase] = useState<Phase>('idle');

  useEffect(() => {
    if (!active) {
      setPhase((p) => (p === 'running' ? 'done' : p));
      return;
    }
    const show = setTimeout(() => setPhase('running'), LOADING_BAR_DELAY_MS);
    const giveUp = setTimeout(() => setPhase((p) => (p === 'running' ? 'done' : p)), LOADING_BAR_MAX_MS);
    return () => {
      clearTimeout(show);
      clearTimeout(giveUp);
    };
  }, [active]);

  useEffect(() => {
    if (phase !== 'done') return;
    const hide = setTimeout(() => setPhase('idle'), FADE_MS);
    return () => clearTimeout(hide);
  }, [phase]);

  if (phase === 'idle') return null;
  return (
    <div
      className={`mq-loading-bar mq-loading-bar-${phase}`}
      role="progressbar"
      aria-label={tr('common', 'loading')}
      aria-busy={phase === 'running'}
    />
  );
}
