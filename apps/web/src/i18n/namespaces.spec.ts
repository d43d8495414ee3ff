import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import en from './locales/en';
import core from './locales/en/core';
import { ROUTE_TABLE } from '@/navigation/route-table';
import { routeTrail } from '@/navigation/permitted-routes';
import { resolveSourceImport, sourceFiles, SRC } from '@/testing/source-files';

// Feature namespaces load with their pages (RouteEntry.namespaces, loaded by the _shell route before a page shows).
// A page that uses a namespace it does not declare would show raw keys; one that declares more than it uses loads
// catalogue text for nothing. Both are found here by following each route file's imports, static and lazy.

const FEATURE_NAMESPACES = Object.keys(en).filter((ns) => !(ns in core));
const NAMESPACE_USE = new RegExp(`['"\`](${FEATURE_NAMESPACES.join('|')}):[\\w.$]`, 'g');
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*)['"]([^'"]+)['"]/g;
/** A lazy import that loads its own namespaces first: `loadNamespaces(['ns']).then(() => import('./module'))`. */
const SELF_LOADING = /loadNamespaces\(\[([^\]]*)\]\)\s*\.then\(\(\) => import\(['"]([^'"]+)['"]\)/g;

/** Modules reached only through a self-loading lazy import, with the namespaces loaded for them. */
const selfLoading = new Map<string, string[]>();

/** Every source file the given file reaches through its imports, itself included. */
function reachable(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file) || !/\.tsx?$/.test(file)) return seen;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  // Those bring their own namespaces: checked on their own (below), not charged to the page.
  const own = new Set<string>();
  for (const [, list, spec] of source.matchAll(SELF_LOADING)) {
    const target = resolveSourceImport(file, spec);
    if (!target) continue;
    own.add(spec);
    selfLoading.set(
      target,
      [...list.matchAll(/'(\w+)'/g)].map((m) => m[1]),
    );
  }
  for (const [, spec] of source.matchAll(IMPORT)) {
    if (own.has(spec)) continue;
    const target = resolveSourceImport(file, spec);
    // The catalogues themselves are not users of namespaces.
    if (target && !target.startsWith(join(SRC, 'i18n', 'locales'))) reachable(target, seen);
  }
  return seen;
}

function namespacesUsed(files: Iterable<string>): string[] {
  const used = new Set<string>();
  for (const file of files) for (const [, ns] of readFileSync(file, 'utf8').matchAll(NAMESPACE_USE)) used.add(ns);
  return [...used].sort();
}

describe('translation namespaces per page', () => {
  const shellDir = join(SRC, 'routes', '_auth', '_shell');
  const pages = sourceFiles(shellDir);

  it('finds the pages and the namespaces', () => {
    expect(pages.length).toBeGreaterThan(5);
    expect(FEATURE_NAMESPACES).toEqual(expect.arrayContaining(['lighting', 'system', 'region']));
  });

  it.each(pages.map((file) => [`/${relative(shellDir, file).replace(/\.tsx?$/, '')}`, file]))(
    '%s declares exactly the namespaces its code uses',
    (path, file) => {
      const declared = [...new Set(routeTrail(ROUTE_TABLE, path).flatMap((entry) => entry.namespaces ?? []))].sort();
      expect({ path, namespaces: namespacesUsed(reachable(file)) }).toEqual({ path, namespaces: declared });
    },
  );

  it('a module that loads its own namespaces loads every feature namespace it uses', () => {
    for (const file of pages) reachable(file);
    expect(selfLoading.size).toBeGreaterThan(0);
    for (const [module, own] of selfLoading) {
      const missing = namespacesUsed(reachable(module)).filter((ns) => !own.includes(ns));
      expect({ module: relative(SRC, module), missing }).toEqual({ module: relative(SRC, module), missing: [] });
    }
  });

  it('the frame and the pages outside it use only the core namespaces', () => {
    const frame = ['__root.tsx', '_auth.tsx', '_auth/_shell.tsx', 'login.tsx', 'auth-redirect.tsx', '_auth/entry.tsx', '_auth/$.tsx']
      .map((name) => join(SRC, 'routes', name))
      .filter((file) => existsSync(file));
    const files = new Set<string>();
    for (const file of frame) reachable(file, files);
    // The frame reaches the header tools and the sidebar: everything on screen around every page.
    expect(files.size).toBeGreaterThan(20);
    expect(namespacesUsed(files)).toEqual([]);
  });
});
