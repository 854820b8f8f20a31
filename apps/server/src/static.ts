import { existsSync } from 'node:fs';
import { basename, join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const HASHED_NAME = /[.-][A-Za-z0-9_-]{8,}\.[A-Za-z0-9]+$/;

/** Long cache for content-hashed files (Vite's assets/), none for index.html. */
function cacheControl(root: string, filePath: string): string {
  if (filePath.endsWith('.html')) return 'no-cache';
  if (filePath.startsWith(join(root, 'assets') + sep) || HASHED_NAME.test(basename(filePath))) {
    return 'public, max-age=31536000, immutable';
  }
  return 'public, max-age=3600';
}

/**
 * Serves the built console from `root` when it has an index.html; returns whether it does.
 * History-mode fallback is in the app's not-found handler.
 */
export async function registerConsole(app: FastifyInstance, root: string): Promise<boolean> {
  if (!existsSync(join(root, 'index.html'))) return false;
  await app.register(fastifyStatic, {
    root,
    cacheControl: false,
    preCompressed: true,
    setHeaders: (reply, filePath) => {
      reply.header('cache-control', cacheControl(root, filePath));
    },
  });
  return true;
}

/** A GET of a page route (not the API, no file extension) answers index.html. */
export function isHistoryRoute(method: string, path: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (path === '/api' || path.startsWith('/api/')) return false;
  return !basename(path).includes('.');
}

/** Where the browser player is served. */
export const PLAYER_PREFIX = '/player/';

/**
 * Serves the built browser player from `root` under /player/ when it has an index.html
 * (its service worker, /player/sw.js, is never cached so a new version reaches the screens).
 * Returns whether it does; its page routes fall back to its own index.html.
 */
export async function registerPlayer(app: FastifyInstance, root: string): Promise<boolean> {
  if (!existsSync(join(root, 'index.html'))) return false;
  await app.register(fastifyStatic, {
    root,
    prefix: PLAYER_PREFIX,
    decorateReply: false,
    cacheControl: false,
    preCompressed: true,
    setHeaders: (reply, filePath) => {
      const name = basename(filePath);
      reply.header('cache-control', name === 'sw.js' ? 'no-cache' : cacheControl(root, filePath));
    },
  });
  app.get('/player', (_request, reply) => reply.redirect(PLAYER_PREFIX));
  return true;
}

/** A page route of the player (under /player/, no file extension). */
export function isPlayerRoute(method: string, path: string): boolean {
  return (method === 'GET' || method === 'HEAD') && path.startsWith(PLAYER_PREFIX) && !basename(path).includes('.');
}
