import { lazy, Suspense, useState } from 'react';
import { Button } from '@mantine/core';
import { IconFileExport, IconFileImport } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, type ExportKind, type ImportKind } from '@sc/contracts';
import { useButton } from '@/auth/session-store';
import { downloadExport } from './api';

// The dialog loads when someone first opens it.
const ImportDialog = lazy(() => import('./import-dialog').then((m) => ({ default: m.ImportDialog })));

/** Import data (shown only to callers with the Import data button) and its dialog. */
export function ImportButton({ kind, onImported }: { kind: ImportKind; onImported?: () => void }) {
  const { t } = useTranslation();
  const allowed = useButton(ButtonPermission.ImportData);
  const [opened, setOpened] = useState(false);
  const [used, setUsed] = useState(false);
  if (!allowed) return null;
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconFileImport size={16} />}
        onClick={() => {
          setUsed(true);
          setOpened(true);
        }}
        data-testid={`import-${kind}`}
      >
        {t('imports:button')}
      </Button>
      {used && (
        <Suspense fallback={null}>
          <ImportDialog opened={opened} kind={kind} onClose={() => setOpened(false)} onImported={onImported} />
        </Suspense>
      )}
    </>
  );
}

/** Downloads the list as it is filtered on screen (`search`: the page's search), with the import's columns. */
export function ExportButton({ kind, search }: { kind: ExportKind; search: object }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="default"
      leftSection={<IconFileExport size={16} />}
      loading={busy}
      onClick={() => {
        setBusy(true);
        void downloadExport(kind, search)
          .catch(() => undefined)
          .finally(() => setBusy(false));
      }}
      data-testid={`export-${kind}`}
    >
      {t('imports:export')}
    </Button>
  );
}
