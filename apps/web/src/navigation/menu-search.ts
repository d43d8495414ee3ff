import Fuse from 'fuse.js';

export interface SearchPage {
  path: string;
  /** Translated titles from the section down to the page, e.g. ['System Setting', 'User Manage']. */
  title: string[];
  /** The same titles in toneless pinyin, when pinyin search is on and the titles are Chinese. */
  pinyinTitle?: string[];
}

/** Spec section 9: fuzzy match, threshold 0.4; weights title 0.7, pinyin title 0.3, path 0.3. */
export const MENU_SEARCH_OPTIONS = {
  shouldSort: true,
  threshold: 0.4,
  minMatchCharLength: 1,
  keys: [
    { name: 'title', weight: 0.7 },
    { name: 'pinyinTitle', weight: 0.3 },
    { name: 'path', weight: 0.3 },
  ],
};

export type ToPinyin = (text: string) => string;

const HAN = /\p{Script=Han}/u;

export function buildSearchPages(pages: { path: string; titles: string[] }[], toPinyin?: ToPinyin): SearchPage[] {
  return pages.map(({ path, titles }) => ({
    path,
    title: titles,
    ...(toPinyin && titles.some((t) => HAN.test(t)) ? { pinyinTitle: titles.map(toPinyin) } : {}),
  }));
}

export function createMenuSearch(pages: SearchPage[]): (query: string) => SearchPage[] {
  const fuse = new Fuse(pages, MENU_SEARCH_OPTIONS);
  return (query) => (query.trim() ? fuse.search(query.trim()).map((r) => r.item) : []);
}

/** pinyin-pro is large: it is loaded only when someone searches with pinyin search on. */
export async function loadPinyin(): Promise<ToPinyin> {
  const { pinyin } = await import('pinyin-pro');
  return (text) => pinyin(text, { toneType: 'none', type: 'array', nonZh: 'consecutive' }).join('').toLowerCase();
}
