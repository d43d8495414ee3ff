import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';

/**
 * Mounts its children from the first time `when` is true on (and keeps them, so a dialog can play its closing
 * transition), inside a Suspense boundary: dialogs and drawers made with `lazyComponent` load only once a user opens one.
 */
export function Deferred({ when, children }: { when: boolean; children: ReactNode }) {
  const [seen, setSeen] = useState(when);
  if (when && !seen) setSeen(true);
  return seen || when ? <Suspense fallback={null}>{children}</Suspense> : null;
}

/** `lazy()` for a named export: `lazyComponent(() => import('./user-form-modal'), 'UserFormModal')`. */
export function lazyComponent<M, K extends keyof M>(load: () => Promise<M>, name: K): M[K] {
  // A lazy component takes the props of the one it loads.
  return lazy(() => load().then((m) => ({ default: m[name] as ComponentType<unknown> }))) as unknown as M[K];
}
