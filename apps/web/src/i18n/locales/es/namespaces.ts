/** This language's feature namespaces, each a chunk of its own (a module apart: only Vite understands the glob). */
export const namespaceLoaders = import.meta.glob<Record<string, object>>(['./*.ts', '!./index.ts', '!./core.ts', '!./namespaces.ts']);
