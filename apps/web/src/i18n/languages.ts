import type { Language } from '@sc/contracts';

/** Interface languages: the short code kept in the `language` cookie, and the tag the API receives. */
export const UI_LANGUAGES = ['zh', 'en', 'es', 'ja'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];
export const DEFAULT_UI_LANGUAGE: UiLanguage = 'en';

export const API_LANGUAGE: Record<UiLanguage, Language> = { zh: 'zh-CN', en: 'en-US', es: 'es', ja: 'ja' };

/** Each language named in itself, as language pickers do. */
export const LANGUAGE_NAMES: Record<UiLanguage, string> = { zh: '中文', en: 'English', es: 'Español', ja: '日本語' };

export function isUiLanguage(value: unknown): value is UiLanguage {
  return typeof value === 'string' && (UI_LANGUAGES as readonly string[]).includes(value);
}
