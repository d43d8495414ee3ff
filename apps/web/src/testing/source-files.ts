import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

// For the tests that read the console's source as files (which namespaces a page uses, what a route module imports):
// never imported by the console itself.

/** The console's source folder (apps/web/src). */
export const SRC = join(__dirname, '..');

/** The file an import names, for `@/…` (from `root`, the console's source unless told) and relative imports; null for packages. */
export function resolveSourceImport(from: string, spec: string, root = SRC): string | null {
  let base: string;
  if (spec.startsWith('@/')) base = join(root, spec.slice(2));
  else if (spec.startsWith('.')) base = join(dirname(from), spec);
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return null;
}

/** Every .ts and .tsx file below a folder. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}
