import { lazy } from 'react';
import { loadNamespaces } from '@/i18n';

/**
 * The imports module's button (and, on click, its dialog), with its translations: it arrives just after the equipment
 * list, so neither is part of the page's first download.
 */
export const LazyImportSlot = lazy(() =>
  loadNamespaces(['imports'])
    .then(() => import('./import-slot'))
    .then((m) => ({ default: m.ImportSlot })),
);
