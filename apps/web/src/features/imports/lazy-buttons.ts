import { lazy } from 'react';
import { loadNamespaces } from '@/i18n';

const buttons = () => loadNamespaces(['imports']).then(() => import('./import-button'));

/**
 * The imports module's buttons (and, on click, the import dialog), with their translations, for a list page: they
 * arrive just after the list, so neither is part of the page's first download. Render them inside a Suspense.
 */
export const LazyImportButton = lazy(() => buttons().then((m) => ({ default: m.ImportButton })));
export const LazyExportButton = lazy(() => buttons().then((m) => ({ default: m.ExportButton })));
