import { create } from 'zustand';

/** Bumped by /redirect/{path}: the page frame is keyed by it, so a refreshed page is rebuilt from scratch. */
export const useRefreshKey = create<{ key: number; bump: () => void }>((set) => ({
  key: 0,
  bump: () => set((s) => ({ key: s.key + 1 })),
}));
