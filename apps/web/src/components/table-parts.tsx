import type { ReactNode } from 'react';
import { Table, Text, type MantineSpacing, type MantineSize } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { OneLine } from './table-columns';

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

/** A device's name over its code (monospace), each on one line with the whole text on hover. */
export function NameCode({ name, code, fw }: { name: string; code: string; fw?: number }) {
  return (
    <>
      <OneLine fw={fw}>{name}</OneLine>
      <OneLine size="xs" c="dimmed" ff="monospace">
        {code}
      </OneLine>
    </>
  );
}
