/** Each feature namespace of each language is a chunk of its own (a module apart: only Vite understands the glob). */
export const namespaceLoaders = import.meta.glob<Record<string, object>>(['./locales/*/*.ts', '!./locales/*/index.ts', '!./locales/*/core.ts']);
