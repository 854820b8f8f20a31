import { create } from 'zustand';

/**
 * Messages decided on a page without antd (the login page) and shown by the antd root once
 * it has mounted: the login toast, the weak-password warning, the forced-password-change notice.
 */
export interface PendingNotice {
  kind: 'success' | 'info' | 'warning';
  /** Dialog title; a notice without one is a toast. */
  title?: string;
  content: string;
}

interface NoticesState {
  items: PendingNotice[];
  push(notice: PendingNotice): void;
  /** Returns and forgets every waiting notice. */
  take(): PendingNotice[];
}

export const usePendingNotices = create<NoticesState>()((set, get) => ({
  items: [],
  push(notice) {
    set({ items: [...get().items, notice] });
  },
  take() {
    const { items } = get();
    if (items.length > 0) set({ items: [] });
    return items;
  },
}));
