import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import en from './locales/en';
import zh from './locales/zh';
import es from './locales/es';
import ja from './locales/ja';
import { AUDITED_ACTIONS } from '@sc/contracts';
import { ROUTE_TABLE, PAGE_TITLES, CENTER_LINKS, type RouteEntry } from '@/navigation/route-table';

const CATALOGUES = { en, zh, es, ja } as const;

function keyPaths(value: object, prefix = ''): string[] {
  return Object.entries(value).flatMap(([key, child]) =>
    child && typeof child === 'object' ? keyPaths(child as object, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

function lookup(catalogue: object, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), catalogue);
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('web catalogues', () => {
  const reference = keyPaths(en).sort();

  it.each(Object.keys(CATALOGUES))('%s has exactly the English keys, none empty, with the same placeholders', (lang) => {
    const catalogue = CATALOGUES[lang as keyof typeof CATALOGUES];
    expect(keyPaths(catalogue).sort()).toEqual(reference);
    for (const path of reference) {
      const text = lookup(catalogue, path);
      expect(typeof text === 'string' && text.trim().length > 0 ? path : `${path} is empty`).toBe(path);
      expect([path, placeholders(text as string)]).toEqual([path, placeholders(lookup(en, path) as string)]);
    }
  });

  it('names every audited action of the operation log in each language', () => {
    for (const [description, key] of Object.entries(AUDITED_ACTIONS)) {
      for (const [lang, catalogue] of Object.entries(CATALOGUES)) {
        const label = lookup(catalogue, `system.log.actions.${key}`);
        expect([lang, description, typeof label]).toEqual([lang, description, 'string']);
        if (lang !== 'en') expect([lang, description, label === description]).toEqual([lang, description, false]);
      }
    }
  });

  it('counts go through plural rules: an English text that puts a noun after a count has its _one and _other forms', () => {
    const unpluralised = reference.filter((path) => {
      if (/_(zero|one|two|few|many|other)$/.test(path)) return false;
      const text = lookup(en, path) as string;
      // "{{count}} lamps", "{{count}} strip lights", "{{count}} alarm(s)": a noun that would read "1 lamps".
      return /\{\{\s*count\s*\}\}\s+(\w+\s+)?\w+(s\b|\(s\))/.test(text);
    });
    expect(unpluralised).toEqual([]);
    for (const path of reference.filter((p) => p.endsWith('_one'))) {
      const other = path.replace(/_one$/, '_other');
      expect([path, reference.includes(other)]).toEqual([path, true]);
    }
  });

  it('Chinese is really Chinese: the route titles and shell texts differ from English', () => {
    for (const key of Object.keys(en.common.route)) {
      expect(zh.common.route[key as keyof typeof zh.common.route]).toMatch(/\p{Script=Han}/u);
    }
  });

  it('every route title, page title and center link has a translation', () => {
    const titles = (entries: readonly RouteEntry[]): string[] => entries.flatMap((e) => [e.title, ...titles(e.children ?? [])]);
    const keys = [...titles(ROUTE_TABLE), ...Object.values(PAGE_TITLES), ...CENTER_LINKS.map((l) => l.title)];
    for (const key of keys) expect(Object.keys(en.common.route)).toContain(key);
  });

  it('every literal translation key used in the source exists in English', () => {
    const root = join(__dirname, '..');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.tsx?$/.test(name) && !/\.spec\.tsx?$/.test(name) && !name.endsWith('.gen.ts')) files.push(path);
      }
    };
    walk(root);
    const missing: string[] = [];
    let checked = 0;
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      for (const match of source.matchAll(/\bt\(\s*'([a-z]+):([\w.]+)'/g)) {
        const [, ns, key] = match;
        const namespace = (en as Record<string, object>)[ns];
        checked += 1;
        const found =
          namespace &&
          (lookup(namespace, key) !== undefined || lookup(namespace, `${key}_other`) !== undefined || lookup(namespace, `${key}_one`) !== undefined);
        if (!found) missing.push(`${file.slice(root.length + 1)}: ${ns}:${key}`);
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });
});
