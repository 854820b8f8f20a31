import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, from this file's place in apps/server/src. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Config {
  port: number;
  host: string;
  /** Absolute data directory; PGlite lives in `<dataDir>/pglite`. */
  dataDir: string;
  /** PostgreSQL connection string; when absent the embedded PGlite is used. */
  databaseUrl: string | undefined;
  /** The built console (apps/web/dist); served when it exists. */
  webDist: string;
  logLevel: string;
  sessionIdleHours: number;
  sessionMaxDays: number;
  /** Trust X-Forwarded-For from a reverse proxy (the operation log records the client IP). */
  trustProxy: boolean;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}

/**
 * Reads the environment into a typed config, in one place. Relative paths resolve against
 * `cwd`. Throws on values that would otherwise fail later and less clearly.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): Config {
  const port = positiveNumber(env, 'PORT', 8080);
  if (!Number.isInteger(port) || port > 65535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const path = (value: string) => (isAbsolute(value) ? value : resolve(cwd, value));
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: path(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    webDist: path(env.WEB_DIST || join(REPO_ROOT, 'apps/web/dist')),
    logLevel,
    sessionIdleHours: positiveNumber(env, 'SESSION_IDLE_HOURS', 12),
    sessionMaxDays: positiveNumber(env, 'SESSION_MAX_DAYS', 7),
    trustProxy: env.TRUST_PROXY === 'true' || env.TRUST_PROXY === '1',
  };
}
