import { Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { deleteAfterConfirm } from '@/components/confirm';
import { EditDeleteCell } from '@/components/row-actions';
import { ColumnCells, ColumnHeads, TableBox, type TableColumns } from '@/components/table-columns';
import { TableEmptyRow } from '@/components/table-parts';

/**
 * A list of records (groups, strategies) with the columns the user chose and Edit and Delete on each row for those
 * granted them; Delete asks first (`deleteText`) and says when it is done. Test ids: `<testId>-table`,
 * `<testId>-row-<rowKey>`, `<testId>-edit`, `<testId>-delete`.
 */
export function RecordTable<Row extends { id: number }>({
  testId,
  columns,
  rows,
  loading,
  emptyText,
  rowKey,
  canEdit,
  canDelete,
  editLabel,
  onEdit,
  deleteText,
  remove,
}: {
  testId: string;
  columns: TableColumns<Row>;
  rows: readonly Row[];
  loading: boolean;
  emptyText: string;
  /** What names the row in its test id. */
  rowKey: (row: Row) => string;
  canEdit: boolean;
  canDelete: boolean;
  editLabel: string;
  onEdit: (row: Row) => void;
  deleteText: (row: Row) => string;
  remove: (row: Row) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  return (
    <TableBox>
      <Table striped highlightOnHover data-testid={`${testId}-table`}>
        <ColumnHeads columns={columns} actions={canEdit || canDelete} />
        <Table.Tbody>
          {rows.length === 0 && (
            <TableEmptyRow colSpan={columns.span()} py="lg">
              {loading ? t('common:feedback.loading') : emptyText}
            </TableEmptyRow>
          )}
          {rows.map((row) => (
            <Table.Tr key={row.id} data-testid={`${testId}-row-${rowKey(row)}`}>
              <ColumnCells columns={columns} row={row} />
              <EditDeleteCell
                canEdit={canEdit}
                canDelete={canDelete}
                editLabel={editLabel}
                onEdit={() => onEdit(row)}
                onDelete={() => void deleteAfterConfirm(deleteText(row), () => remove(row), t('common:feedback.deleted'))}
                editTestId={`${testId}-edit`}
                deleteTestId={`${testId}-delete`}
              />
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </TableBox>
  );
}
