import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import Cookies from 'js-cookie';
import { API_LANGUAGE, DEFAULT_UI_LANGUAGE, isUiLanguage, type UiLanguage } from './languages';
import type { WebCatalogue } from './locales/en';

export const LANGUAGE_COOKIE = 'language';
const SWITCHED_FLAG = 'languageSwitched';

/** Only the chosen language is downloaded: each one is its own chunk. */
const loaders: Record<UiLanguage, () => Promise<{ default: WebCatalogue }>> = {
  zh: () => import('./locales/zh'),
  en: () => import('./locales/en'),
  es: () => import('./locales/es'),
  ja: () => import('./locales/ja'),
};

/** The language in the cookie, falling back to English (spec sections 1 and 9). */
export function currentLanguage(): UiLanguage {
  const stored = Cookies.get(LANGUAGE_COOKIE);
  return isUiLanguage(stored) ? stored : DEFAULT_UI_LANGUAGE;
}

export function apiLanguage(): string {
  return API_LANGUAGE[currentLanguage()];
}

export async function initI18n(): Promise<typeof i18next> {
  const lng = currentLanguage();
  const catalogue = (await loaders[lng]()).default;
  await i18next.use(initReactI18next).init({
    lng,
    resources: { [lng]: catalogue },
    ns: Object.keys(catalogue),
    defaultNS: 'common',
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    showSupportNotice: false,
  } as Parameters<typeof i18next.init>[0]);
  document.documentElement.lang = API_LANGUAGE[lng];
  return i18next;
}

/** Stores the choice and reloads, as the spec describes; the reloaded page confirms the switch. */
export function switchLanguage(lng: UiLanguage): void {
  Cookies.set(LANGUAGE_COOKIE, lng, { expires: 365, sameSite: 'Lax' });
  sessionStorage.setItem(SWITCHED_FLAG, '1');
  window.location.reload();
}

/** True once, on the first load after a language switch. */
export function consumeLanguageSwitched(): boolean {
  const switched = sessionStorage.getItem(SWITCHED_FLAG) === '1';
  sessionStorage.removeItem(SWITCHED_FLAG);
  return switched;
}

export { i18next };
