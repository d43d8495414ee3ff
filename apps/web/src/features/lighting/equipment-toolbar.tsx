import { Button, Group } from '@mantine/core';
import { IconPlus, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission } from '@sc/contracts';
import { useButton } from '@/auth/session-store';
import { Suspense } from 'react';
import { LazyImportButton } from '@/features/imports/lazy-buttons';

/** Add, Refresh and Import data above an equipment list, each shown only to callers with its button. */
export function EquipmentToolbar({
  kind,
  addLabel,
  onAdd,
  onRefresh,
}: {
  kind: 'gateway' | 'loop';
  addLabel: string;
  onAdd: () => void;
  /** Refresh, and what an import that wrote something does. */
  onRefresh: () => void;
}) {
  const { t } = useTranslation();
  const canAdd = useButton(ButtonPermission.Add);
  const canRefresh = useButton(ButtonPermission.Refresh);
  return (
    <Group gap="xs" mb="sm">
      {canAdd && (
        <Button leftSection={<IconPlus size={16} />} onClick={onAdd} data-testid={`${kind}-add`}>
          {addLabel}
        </Button>
      )}
      {canRefresh && (
        <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={onRefresh}>
          {t('lighting:equipment.refresh')}
        </Button>
      )}
      <Suspense fallback={null}>
        <LazyImportButton kind={kind} onImported={onRefresh} />
      </Suspense>
    </Group>
  );
}
