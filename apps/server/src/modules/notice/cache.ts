import type { Notice } from '@marquee/protocol';
import type { InvalidationBus, SharedCache } from '../../db/invalidation.js';

export interface NoticePage {
  total: number;
  data: Notice[];
}

/**
 * The header asks for the notice list on every page load, so pages are kept for a few
 * seconds per enterprise. Writes invalidate at once (after commit) here and, through the
 * invalidation bus, on the other instances of the database.
 */
export class NoticeCache implements SharedCache {
  private readonly pages = new Map<string, { page: NoticePage; at: number }>();
  private bus: InvalidationBus | null = null;

  constructor(
    private readonly ttlMs = 5_000,
    private readonly maxEntries = 10_000,
  ) {}

  key(entId: string, pushPlatform: number, page: number, size: number): string {
    return `${entId}|${pushPlatform}|${page}|${size}`;
  }

  get(key: string, now: number): NoticePage | undefined {
    const hit = this.pages.get(key);
    if (!hit) return undefined;
    if (now - hit.at > this.ttlMs) {
      this.pages.delete(key);
      return undefined;
    }
    return hit.page;
  }

  set(key: string, page: NoticePage, now: number): void {
    if (this.pages.size >= this.maxEntries) {
      const oldest = this.pages.keys().next().value;
      if (oldest !== undefined) this.pages.delete(oldest);
    }
    this.pages.set(key, { page, at: now });
  }

  /** Shares invalidations with the other instances on the database. */
  connect(bus: InvalidationBus): void {
    this.bus = bus;
    bus.subscribe('notices', this);
  }

  /** After a write to one enterprise's notices or monitor applications. */
  invalidateEnterprise(entId: string): void {
    this.evict('enterprise', entId);
    this.bus?.publish('notices', 'enterprise', entId);
  }

  /** After a write to a platform-wide notice, which every enterprise sees. */
  clear(): void {
    this.evictAll();
    this.bus?.publish('notices', 'all', '');
  }

  evict(kind: string, id: string): void {
    if (kind === 'all') {
      this.evictAll();
      return;
    }
    const prefix = `${id}|`;
    for (const key of [...this.pages.keys()]) if (key.startsWith(prefix)) this.pages.delete(key);
  }

  evictAll(): void {
    this.pages.clear();
  }
}
