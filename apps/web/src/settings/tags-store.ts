import { create } from 'zustand';
import { persist } from 'zustand/middleware';

export interface VisitedTag {
  /** One tab per path. */
  path: string;
  /** Path plus query, reopened as it was left. */
  fullPath: string;
  title: string;
}

interface TagsState {
  tags: VisitedTag[];
  visit: (tag: VisitedTag) => void;
  close: (path: string) => void;
  closeOthers: (path: string) => void;
  closeAll: () => void;
}

/** The visited-tabs bar: one tab per path, kept across reloads, cleared at logout. */
export const useTags = create<TagsState>()(
  persist(
    (set) => ({
      tags: [],
      visit: (tag) =>
        set((s) => {
          const index = s.tags.findIndex((t) => t.path === tag.path);
          if (index === -1) return { tags: [...s.tags, tag] };
          const current = s.tags[index];
          if (current.fullPath === tag.fullPath && current.title === tag.title) return s;
          const tags = [...s.tags];
          tags[index] = tag;
          return { tags };
        }),
      close: (path) => set((s) => ({ tags: s.tags.filter((t) => t.path !== path) })),
      closeOthers: (path) => set((s) => ({ tags: s.tags.filter((t) => t.path === path) })),
      closeAll: () => set({ tags: [] }),
    }),
    { name: 'sc-visited-tags', version: 1 },
  ),
);
