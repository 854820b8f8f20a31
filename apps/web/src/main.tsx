import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { reloadOnceForChunkError } from './app/chunkReload';
import { createAppRouter } from './app/router';
import { currentLocale, initI18n } from './i18n';
import { useSession } from './session/session';
import { applySkinToBody } from './session/skinTokens';
import './app/global.css';

// Vite's module preload failed (a chunk of an older deployment): reload once (spec section 8).
window.addEventListener('vite:preloadError', (event) => {
  if (reloadOnceForChunkError()) event.preventDefault();
});

async function start() {
  const locale = currentLocale();
  useSession.setState({ locale });
  applySkinToBody(useSession.getState().skin);
  await initI18n(locale);
  const router = createAppRouter();
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <App router={router} />
    </StrictMode>,
  );
}

void start();
