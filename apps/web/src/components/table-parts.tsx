import type { ReactNode } from 'react';
import { Table, Text, type MantineSpacing, type MantineSize } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The one row a table shows when it has nothing to list ('No data' unless told). */
export function TableEmptyRow({ colSpan, size, py, children }: { colSpan: number; size?: MantineSize; py?: MantineSpacing; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Table.Tr>
      <Table.Td colSpan={colSpan}>
        <Text size={size} c="dimmed" ta="center" py={py}>
          {children ?? t('common:feedback.noData')}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

/** A device's name over its code (monospace), in one cell. */
export function NameCodeCell({ name, code, fw }: { name: string; code: string; fw?: number }) {
  return (
    <Table.Td>
      <Text size="sm" fw={fw}>
        {name}
      </Text>
      <Text size="xs" c="dimmed" ff="monospace">
        {code}
      </Text>
    </Table.Td>
  );
}

/** A table's header row: one cell per label, then Operations (right-aligned) when the rows have actions. */
export function TableHeader({ labels, operations }: { labels: string[]; operations: boolean }) {
  const { t } = useTranslation();
  return (
    <Table.Thead>
      <Table.Tr>
        {labels.map((label, i) => (
          <Table.Th key={i}>{label}</Table.Th>
        ))}
        {operations && <Table.Th ta="right">{t('common:actions.operations')}</Table.Th>}
      </Table.Tr>
    </Table.Thead>
  );
}
