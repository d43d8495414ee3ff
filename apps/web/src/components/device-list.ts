import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmDelete } from '@/components/confirm';
import { notifySuccess } from '@/components/notify';
import { usePageSelection } from '@/components/selection';
import { useTableColumns, type Column } from '@/components/table-columns';
import { compact } from '@/navigation/search-params';

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
