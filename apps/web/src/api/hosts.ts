/**
 * Which API host a call goes to (spec sections 7 and 9). The console's origin is 'new'; a
 * prefix selects the new or the old host, and the test environment's hosts are chosen when
 * the page's host is local or starts with dev-, test- or uat-.
 *
 * Each base is a URL prefix put before the endpoint's path ('' = the page's own origin, which
 * is how Marquee's server serves both the console and the API). A deployment that splits
 * them sets them at build time: VITE_API_NEW, VITE_API_OLD, VITE_API_TEST_NEW, VITE_API_TEST_OLD.
 */
export type ApiHost = 'new' | 'old';
export type HostEnvironment = 'test' | 'production';
export type HostBases = Record<HostEnvironment, Record<ApiHost, string>>;

const env = import.meta.env as Record<string, string | undefined>;

export const HOST_BASES: HostBases = {
  production: { new: env.VITE_API_NEW ?? '', old: env.VITE_API_OLD ?? '' },
  test: { new: env.VITE_API_TEST_NEW ?? env.VITE_API_NEW ?? '', old: env.VITE_API_TEST_OLD ?? env.VITE_API_OLD ?? '' },
};

const LOCAL_HOSTS = /^(localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[?::1\]?)$|\.localhost$/i;
const TEST_PREFIXES = /^(dev|test|uat)-/i;

/** 'test' when the host is local or starts with dev-, test- or uat- (spec section 9). */
export function hostEnvironment(hostname: string): HostEnvironment {
  return LOCAL_HOSTS.test(hostname) || TEST_PREFIXES.test(hostname) ? 'test' : 'production';
}

function pageHostname(): string {
  return typeof location === 'undefined' ? 'localhost' : location.hostname;
}

/** The URL prefix of the new or old API host for the page's environment, without a trailing slash. */
export function apiBase(
  host: ApiHost = 'new',
  hostname: string = pageHostname(),
  bases: HostBases = HOST_BASES,
): string {
  return bases[hostEnvironment(hostname)][host].replace(/\/+$/, '');
}
