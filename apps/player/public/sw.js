/* The player's service worker: keeps the app shell (index.html and its assets) so the player
   starts without a network. Content files are kept by the page itself in the Cache API
   (marquee-content-v1); this worker never touches them. */
const SHELL = 'marquee-shell-v1';
const SCOPE = '/player/';

async function precache() {
  const cache = await caches.open(SHELL);
  const response = await fetch(SCOPE, { cache: 'no-store' });
  if (!response.ok) return;
  const html = await response.clone().text();
  await cache.put(SCOPE, response);
  const assets = [...html.matchAll(/(?:src|href)="(\/player\/[^"]+)"/g)].map((m) => m[1]);
  await Promise.all(
    assets.map((url) =>
      fetch(url)
        .then((r) => (r.ok ? cache.put(url, r) : undefined))
        .catch(() => undefined),
    ),
  );
}

self.addEventListener('install', (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== location.origin || !url.pathname.startsWith(SCOPE)) return;
  const isPage = request.mode === 'navigate';
  event.respondWith(
    (async () => {
      const cache = await caches.open(SHELL);
      if (isPage || !url.pathname.startsWith(`${SCOPE}assets/`)) {
        // Network first (a new version when online), the cached shell when offline.
        try {
          const response = await fetch(request);
          if (response.ok) await cache.put(isPage ? SCOPE : request, response.clone());
          return response;
        } catch {
          const cached = await cache.match(isPage ? SCOPE : request);
          if (cached) return cached;
          throw new Error('offline');
        }
      }
      // Hashed assets never change: cache first.
      const cached = await cache.match(request);
      if (cached) return cached;
      const response = await fetch(request);
      if (response.ok) await cache.put(request, response.clone());
      return response;
    })(),
  );
});
