import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { player } from './runtime';
import './styles.css';

if ('serviceWorker' in navigator) {
  // The app shell (and its assets) for restarts without a network.
  void navigator.serviceWorker.register('/player/sw.js', { scope: '/player/' }).catch(() => {});
}
void navigator.storage?.persist?.();
window.addEventListener('pagehide', () => void player.shutdown());
void player.start();

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
