import { create } from 'zustand';
import { persist } from 'zustand/middleware';

export const ELEMENT_SIZES = ['default', 'medium', 'small', 'mini'] as const;
export type ElementSize = (typeof ELEMENT_SIZES)[number];

/** Spec section 9: theme colour #1366ec and seven more presets. */
export const THEME_PRESETS = ['#1366ec', '#0f9d8a', '#2f54eb', '#722ed1', '#d4380d', '#d48806', '#389e0d', '#13a8a8'] as const;
export const DEFAULT_THEME = THEME_PRESETS[0];

export interface Settings {
  sidebarOpened: boolean;
  size: ElementSize;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
  pinyinSearch: boolean;
  themeColor: string;
}

export const DEFAULT_SETTINGS: Settings = {
  sidebarOpened: true,
  size: 'medium',
  tagsView: true,
  fixedHeader: true,
  sidebarLogo: true,
  pinyinSearch: true,
  themeColor: DEFAULT_THEME,
};

interface SettingsActions {
  set: <K extends keyof Settings>(key: K, value: Settings[K]) => void;
  toggleSidebar: () => void;
}

/** Layout preferences of spec sections 1, 3 and 9, kept in local storage across reloads. */
export const useSettings = create<Settings & SettingsActions>()(
  persist(
    (set) => ({
      ...DEFAULT_SETTINGS,
      set: (key, value) => set({ [key]: value } as Partial<Settings>),
      toggleSidebar: () => set((s) => ({ sidebarOpened: !s.sidebarOpened })),
    }),
    {
      name: 'sc-settings',
      version: 1,
      partialize: ({ set: _set, toggleSidebar: _toggle, ...settings }) => settings,
    },
  ),
);
