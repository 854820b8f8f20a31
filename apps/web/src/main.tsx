import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { reloadOnceForChunkError } from './app/chunkReload';
import { createAppRouter } from './app/router';
import { BOOT_NAMESPACES, currentLocale, initI18n } from './i18n';
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
  // The first screen's texts only; antd's root loads the rest before any other page renders.
  await initI18n(locale, BOOT_NAMESPACES);
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
