import type { ReactNode } from 'react';
import { Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SelectPageHeader, SelectableRow, SelectionSummary, type PageSelection } from '@/components/selection';
import { ColumnCells, ColumnHeads, TableBox, type TableColumns } from '@/components/table-columns';
import { TableEmptyRow } from '@/components/table-parts';

/**
 * A device list's table with its selection: the count chosen (and Clear), a tick box per row and for the page, the
 * columns the user shows, and the row's actions pinned at the right. Test ids: `<testId>-selected`, `<testId>-table`.
 */
export function DeviceTable<Row extends { id: number }>({
  testId,
  rows,
  loading,
  selection,
  columns,
  texts,
  rowLabel,
  rowTestId,
  withActions,
  actions,
}: {
  testId: string;
  rows: readonly Row[];
  loading: boolean;
  selection: PageSelection;
  columns: TableColumns<Row>;
  /** The family's list texts: `<texts>.selected` (with a count), `.clearSelection`, `.selectPage`, `.empty`. */
  texts: string;
  /** The row's name, for its tick box. */
  rowLabel: (row: Row) => string;
  rowTestId: (row: Row) => string;
  /** Whether the table has an actions column. */
  withActions: boolean;
  /** The row's actions cell. */
  actions: (row: Row) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      <SelectionSummary
        selection={selection}
        text={t(`${texts}.selected`, { count: selection.selected.size })}
        clearLabel={t(`${texts}.clearSelection`)}
        testId={`${testId}-selected`}
      />
      <TableBox>
        <Table striped highlightOnHover data-testid={`${testId}-table`}>
          <ColumnHeads columns={columns} actions={withActions} lead={<SelectPageHeader selection={selection} label={t(`${texts}.selectPage`)} />} />
          <Table.Tbody>
            {rows.length === 0 && (
              <TableEmptyRow colSpan={columns.span(1)} py="md">
                {loading ? t('common:feedback.loading') : t(`${texts}.empty`)}
              </TableEmptyRow>
            )}
            {rows.map((row) => (
              <SelectableRow key={row.id} selection={selection} id={row.id} label={rowLabel(row)} testId={rowTestId(row)}>
                <ColumnCells columns={columns} row={row} />
                {actions(row)}
              </SelectableRow>
            ))}
          </Table.Tbody>
        </Table>
      </TableBox>
    </>
  );
}
