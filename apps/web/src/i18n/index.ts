import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import Cookies from 'js-cookie';
import { API_LANGUAGE, DEFAULT_UI_LANGUAGE, isUiLanguage, type UiLanguage } from './languages';
import type { WebCatalogue } from './locales/en';
import type core from './locales/en/core';

export const LANGUAGE_COOKIE = 'language';
const SWITCHED_FLAG = 'languageSwitched';

type CoreCatalogue = typeof core;
/** A namespace of one part of the console, loaded with the pages that use it (RouteEntry.namespaces). */
export type FeatureNamespace = Exclude<keyof WebCatalogue, keyof CoreCatalogue>;

/** Only the chosen language is downloaded, and of it first only what every page needs. */
const coreLoaders: Record<UiLanguage, () => Promise<{ default: CoreCatalogue }>> = {
  zh: () => import('./locales/zh/core'),
  en: () => import('./locales/en/core'),
  es: () => import('./locales/es/core'),
  ja: () => import('./locales/ja/core'),
};

/** Where each language's namespaces are: a page downloads the loaders of the language in use only. */
const namespaceLoaders: Record<UiLanguage, () => Promise<{ namespaceLoaders: Record<string, () => Promise<Record<string, object>>> }>> = {
  zh: () => import('./locales/zh/namespaces'),
  en: () => import('./locales/en/namespaces'),
  es: () => import('./locales/es/namespaces'),
  ja: () => import('./locales/ja/namespaces'),
};

/** Loads the namespaces a page needs (once each); the router waits for them before it shows the page. */
export async function loadNamespaces(namespaces: readonly FeatureNamespace[]): Promise<void> {
  const lng = i18next.language as UiLanguage;
  const missing = namespaces.filter((ns) => !i18next.hasResourceBundle(lng, ns));
  if (missing.length === 0) return;
  const loaders = (await namespaceLoaders[lng]()).namespaceLoaders;
  await Promise.all(
    missing.map(async (ns) => {
      const load = loaders[`./${ns}.ts`];
      if (!load) throw new Error(`No ${lng} catalogue for the namespace ${ns}`);
      i18next.addResourceBundle(lng, ns, (await load())[ns]);
    }),
  );
}

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
  const catalogue = (await coreLoaders[lng]()).default;
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
