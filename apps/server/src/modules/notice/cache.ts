import type { Notice } from '@marquee/protocol';

export interface NoticePage {
  total: number;
  data: Notice[];
}

/**
 * The header asks for the notice list on every page load, so pages are kept for a few
 * seconds per enterprise. Writes through this process invalidate at once (after commit);
 * writes by another process show within the TTL.
 */
export class NoticeCache {
  private readonly pages = new Map<string, { page: NoticePage; at: number }>();

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

  /** After a write to one enterprise's notices or monitor applications. */
  invalidateEnterprise(entId: string): void {
    const prefix = `${entId}|`;
    for (const key of [...this.pages.keys()]) if (key.startsWith(prefix)) this.pages.delete(key);
  }

  /** After a write to a platform-wide notice, which every enterprise sees. */
  clear(): void {
    this.pages.clear();
  }
}
