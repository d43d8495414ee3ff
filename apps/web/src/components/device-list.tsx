import { useState, type ReactNode } from 'react';
import { Table, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AreaCascader } from '@/components/area-cascader';
import { confirmDelete } from '@/components/confirm';
import { notifySuccess } from '@/components/notify';
import { FilterBar } from '@/components/page-panel';
import { SelectPageHeader, SelectableRow, SelectionSummary, usePageSelection, type PageSelection } from '@/components/selection';
import { ColumnCells, ColumnHeads, TableBox, useTableColumns, type Column, type TableColumns } from '@/components/table-columns';
import { TableEmptyRow } from '@/components/table-parts';
import { compact } from '@/navigation/search-params';

// A device list's shared parts, in one module: split by which pages use each, their chunks cost the device pages
// more than they would save the others.

/** What every device list page keeps: the filters typed, the rows chosen, the row being edited, its columns. */
export function useDeviceList<Row extends { id: number }, S extends { dispatch?: string }>({
  search,
  go,
  rows,
  table,
  columns,
  remove,
  deleteText,
}: {
  /** The page's search, as the address holds it. */
  search: S;
  /** Navigates to another search of the same page. */
  go: (search: S) => void;
  rows: readonly Row[];
  /** The table's name for its remembered column choice. */
  table: string;
  columns: readonly Column<Row>[];
  remove: (id: number) => Promise<unknown>;
  /** The confirmation's text for deleting a row. */
  deleteText: (row: Row) => string;
}) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<Row | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [draft, setDraft] = useState<S>(search);
  const selection = usePageSelection(rows.map((r) => r.id));
  const tableColumns = useTableColumns(table, columns);
  return {
    editing,
    formOpen,
    closeForm: () => setFormOpen(false),
    /** Opens the form for a row, or for a new one. */
    edit: (row: Row | null) => {
      setEditing(row);
      setFormOpen(true);
    },
    draft,
    setDraft,
    /** Applies filters from the first page, keeping the dispatch being followed. */
    apply: (next: S) => go(compact({ ...next, pageNum: undefined, dispatch: search.dispatch }) as S),
    selection,
    columns: tableColumns,
    /** Deletes a row after confirmation, and forgets it in the selection. */
    deleteRow: async (row: Row) => {
      if (!(await confirmDelete(deleteText(row)))) return;
      await remove(row.id);
      selection.setSelected((current) => new Set([...current].filter((id) => id !== row.id)));
      notifySuccess(t('common:feedback.deleted'));
    },
  };
}

/**
 * The filter bar of a device list kept in the address: a name (trimmed on Search), a region (and the regions below
 * it; only with `regionLabel`: not every family's list filters by region), and whatever else the family filters by as
 * `children`. Reset clears the form and the list's filters.
 */
export function DeviceListFilters<S extends object, K extends keyof S & string>({
  testId,
  nameKey,
  nameLabel,
  regionLabel,
  draft,
  setDraft,
  apply,
  children,
}: {
  testId: string;
  nameKey: K;
  nameLabel: string;
  regionLabel?: string;
  draft: S;
  setDraft: (next: S) => void;
  apply: (next: S) => void;
  children?: ReactNode;
}) {
  const name = (draft[nameKey] as string | undefined) ?? '';
  return (
    <FilterBar
      onSubmit={() => apply({ ...draft, [nameKey]: name.trim() || undefined })}
      onReset={() => {
        setDraft({} as S);
        apply({} as S);
      }}
      testId={testId}
    >
      <TextInput
        label={nameLabel}
        value={name}
        onChange={(e) => setDraft({ ...draft, [nameKey]: e.currentTarget.value })}
        name={nameKey}
        w={{ base: '100%', sm: 200 }}
      />
      {regionLabel !== undefined && (
        <AreaCascader
          label={regionLabel}
          value={(draft as { regionId?: number }).regionId ?? null}
          onChange={(id) => setDraft({ ...draft, regionId: id ?? undefined })}
        />
      )}
      {children}
    </FilterBar>
  );
}

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
