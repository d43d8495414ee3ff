import { useState, type ReactNode } from 'react';
import { Grid, Stack, Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Button, type DeviceFamily } from '@sc/contracts';
import { useButton } from '@/auth/session-store';
import { AreaCascader } from '@/components/area-cascader';
import { confirmDelete } from '@/components/confirm';
import { NameFilter } from '@/components/filter-fields';
import { notifySuccess } from '@/components/notify';
import { FilterBar } from '@/components/page-panel';
import { SelectPageHeader, SelectableRow, SelectionSummary, usePageSelection, type PageSelection } from '@/components/selection';
import { ColumnCells, ColumnHeads, TableBox, useTableColumns, type Column, type TableColumns } from '@/components/table-columns';
import { RenewMqttAction } from '@/components/renew-mqtt-action';
import { EditDeleteCell } from '@/components/row-actions';
import { TableFooter } from '@/components/table-footer';
import { TableEmptyRow } from '@/components/table-parts';
import { compact, paging, type PageSearch } from '@/navigation/search-params';

// A device list's shared parts, in one module: split by which pages use each, their chunks cost the device pages
// more than they would save the others.

/** What every device list page keeps: the filters typed, the rows chosen, the row being edited, its columns. */
export function useDeviceList<Row extends { id: number }, S extends { dispatch?: string } & PageSearch>({
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
  /** Navigates to another search of the same page (`replace`: in place of the current entry, keeping the scroll). */
  go: (search: S, replace?: boolean) => void;
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
  const canAdd = useButton(Button.Add);
  const canEdit = useButton(Button.Edit);
  const canDelete = useButton(Button.Delete);
  return {
    canAdd,
    canEdit,
    canDelete,
    ...paging(search),
    /** Shows another page of the list (or another page size). */
    goPage: (page: PageSearch) => go({ ...search, ...page }),
    /** Follows a dispatch just started from the page (in the address, so a reload still shows it). */
    follow: (dispatchId: string) => go({ ...search, dispatch: dispatchId }, true),
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
      <NameFilter label={nameLabel} value={name} onChange={(text) => setDraft({ ...draft, [nameKey]: text })} name={nameKey} width={200} />
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

/** What a device list page's parts take of useDeviceList. */
type DeviceList<Row extends { id: number }> = Pick<
  ReturnType<typeof useDeviceList<Row, PageSearch>>,
  'canEdit' | 'canDelete' | 'edit' | 'deleteRow' | 'pageNum' | 'pageSize' | 'goPage'
>;

/** A device row's actions: Edit, Edit MQTT (a new login for the device) and Delete, each for those granted its button. */
export function DeviceRowActions<Row extends { id: number }>({
  list,
  row,
  family,
  name,
  editLabel,
  testId,
}: {
  list: DeviceList<Row>;
  row: Row;
  family: DeviceFamily;
  name: string;
  editLabel: string;
  /** `<testId>-renew-mqtt` on Edit MQTT. */
  testId: string;
}) {
  return (
    <EditDeleteCell
      canEdit={list.canEdit}
      canDelete={list.canDelete}
      onEdit={() => list.edit(row)}
      onDelete={() => void list.deleteRow(row)}
      editLabel={editLabel}
    >
      <RenewMqttAction family={family} id={row.id} name={name} testId={`${testId}-renew-mqtt`} />
    </EditDeleteCell>
  );
}

/**
 * The body of a device list page: the filters and the table (`children`) over the list's pages on the left, and
 * beside them (below, on a narrow screen) the commands and the dispatch they started (`side`).
 */
export function DeviceListBody<Row extends { id: number }>({
  list,
  total,
  side,
  children,
}: {
  list: DeviceList<Row>;
  total: number;
  side: ReactNode;
  children: ReactNode;
}) {
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, xl: 8 }}>
        <Stack gap="sm">
          {children}
          <TableFooter total={total} pageNum={list.pageNum} pageSize={list.pageSize} onChange={list.goPage} />
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, xl: 4 }}>
        <Stack gap="md">{side}</Stack>
      </Grid.Col>
    </Grid>
  );
}
