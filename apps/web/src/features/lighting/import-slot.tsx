import { ImportButton } from '@/features/imports/import-button';

/** Which import each equipment tab offers (the imports module's kinds: single lamps are 'light'). */
const IMPORT_KIND = { gateway: 'gateway', loop: 'loop', lamp: 'light' } as const;

/**
 * Import data on the equipment tabs: the imports module's button and dialog, shown only to callers with the
 * Import data button. `onImported` refreshes the lists once an import wrote something.
 */
export function ImportSlot({ kind, onImported }: { kind: keyof typeof IMPORT_KIND; onImported: () => void }) {
  return <ImportButton kind={IMPORT_KIND[kind]} onImported={onImported} />;
}
