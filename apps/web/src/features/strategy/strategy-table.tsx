import { useState, type ReactNode } from 'react';
import { Badge, Button, Table, Text } from '@mantine/core';
import { IconEdit, IconPlus, IconSend, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, type PageResult, type StrategyRow } from '@sc/contracts';
import { confirmDelete } from '@/components/confirm';
import { notifySuccess } from '@/components/notify';
import { TableFooter } from '@/components/table-footer';
import { IconAction } from '@/components/row-actions';
import { TableEmptyRow } from '@/components/table-parts';
import { ColumnCells, ColumnHeads, OneLine, PinnedActionsCell, TableBox, useTableColumns, type Column } from '@/components/table-columns';
import { useButton } from '@/auth/session-store';
import { settingsOf } from './strategy-summary';

/**
 * What a strategies page keeps open: the strategy being edited (`{ row: null }` for a new one) or distributed, and
 * Delete after 'Are you sure to delete?'. `onDistributed` follows the dispatch a distribution started.
 */
export function useStrategyDialogs(
  remove: { mutate: (id: number, options: { onSuccess: () => void }) => void },
  onDistributed: (dispatchId: string) => void,
) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ row: StrategyRow | null } | null>(null);
  const [distributing, setDistributing] = useState<StrategyRow | null>(null);
  return {
    editing,
    setEditing,
    distributing,
    setDistributing,
    remove: async (row: StrategyRow) => {
      if (!(await confirmDelete(t('strategy:list.deleteDetail', { name: row.name })))) return;
      remove.mutate(row.id, { onSuccess: () => notifySuccess(t('common:feedback.deleted')) });
    },
    distributed: (dispatchId: string) => {
      setDistributing(null);
      onDistributed(dispatchId);
    },
  };
}

export type StrategyDialogs = ReturnType<typeof useStrategyDialogs>;

/** Add (a new strategy), for callers with the Add button. */
export function StrategyAddButton({ dialogs, testId }: { dialogs: StrategyDialogs; testId: string }) {
  const { t } = useTranslation();
  const canAdd = useButton(ButtonPermission.Add);
  return (
    canAdd && (
      <Button leftSection={<IconPlus size={16} />} onClick={() => dialogs.setEditing({ row: null })} data-testid={testId}>
        {t('strategy:list.add')}
      </Button>
    )
  );
}

/**
 * Strategies with their mode, settings and periods, a devices column of the page's own (`devicesHeader`,
 * `devicesCell`: the cell's content) and Distribute, Edit and Delete for callers with those buttons. Test ids:
 * `<testId>-table`, `<testId>-row-<name>`, `<testId>-distribute-<name>` and, with `testEditDelete`, `<testId>-edit-<name>`
 * and `<testId>-delete-<name>`. The pages' footer follows it.
 */
export function StrategyTable({
  data,
  pageNum,
  pageSize,
  onPage,
  dialogs,
  testId,
  distributeLabel,
  devicesHeader,
  devicesCell,
  devicesTd,
  subtitle,
  testEditDelete = false,
}: {
  /** The page of strategies shown, and how to ask for another. */
  data: PageResult<StrategyRow> | undefined;
  pageNum: number;
  pageSize: number;
  onPage: (page: { pageNum: number; pageSize: number }) => void;
  dialogs: StrategyDialogs;
  testId: string;
  distributeLabel: string;
  devicesHeader: string;
  /** What the devices cell shows. */
  devicesCell: (row: StrategyRow) => ReactNode;
  /** Props of the devices cell (e.g. its test id). */
  devicesTd?: Column<StrategyRow>['td'];
  /** Under the name. */
  subtitle?: (row: StrategyRow) => ReactNode;
  testEditDelete?: boolean;
}) {
  const { t } = useTranslation();
  const canEdit = useButton(ButtonPermission.Edit);
  const canDelete = useButton(ButtonPermission.Delete);
  const canDistribute = useButton(ButtonPermission.OpenAndClose);
  const rows = data?.list ?? [];
  const rowTestId = (action: string, row: StrategyRow) => (testEditDelete ? `${testId}-${action}-${row.name}` : undefined);
  const columns = useTableColumns<StrategyRow>(testId, [
    {
      key: 'name',
      label: t('strategy:fields.name'),
      always: true,
      cell: (row) => (
        <>
          <OneLine fw={500}>{row.name}</OneLine>
          {subtitle?.(row)}
        </>
      ),
    },
    { key: 'mode', label: t('strategy:fields.mode'), cell: (row) => <Badge variant="light">{t(`strategy:mode.${row.mode}`)}</Badge> },
    { key: 'settings', label: t('strategy:fields.settings'), hidden: true, wrap: true, cell: (row) => <Text size="sm">{settingsOf(t, row)}</Text> },
    {
      key: 'periods',
      label: t('strategy:fields.periods'),
      wrap: true,
      cell: (row) => (
        <Text size="sm">
          {row.periods.length === 0
            ? t('strategy:summary.noPeriods')
            : row.periods.map((p) => t('strategy:summary.period', { start: p.start, end: p.end, level: p.level })).join(', ')}
        </Text>
      ),
    },
    { key: 'devices', label: devicesHeader, td: devicesTd, cell: devicesCell },
  ]);
  return (
    <>
      <TableBox>
        <Table striped highlightOnHover data-testid={`${testId}-table`}>
          <ColumnHeads columns={columns} actions={canDistribute || canEdit || canDelete} />
          <Table.Tbody>
            {rows.length === 0 && (
              <TableEmptyRow colSpan={columns.span()} size="sm">
                {t('strategy:list.empty')}
              </TableEmptyRow>
            )}
            {rows.map((row) => (
              <Table.Tr key={row.id} data-testid={`${testId}-row-${row.name}`}>
                <ColumnCells columns={columns} row={row} />
                <PinnedActionsCell>
                  {canDistribute && (
                    <IconAction
                      label={distributeLabel}
                      variant="subtle"
                      onClick={() => dialogs.setDistributing(row)}
                      testId={`${testId}-distribute-${row.name}`}
                    >
                      <IconSend size={16} />
                    </IconAction>
                  )}
                  {canEdit && (
                    <IconAction
                      label={t('strategy:list.edit')}
                      variant="subtle"
                      onClick={() => dialogs.setEditing({ row })}
                      testId={rowTestId('edit', row)}
                    >
                      <IconEdit size={16} />
                    </IconAction>
                  )}
                  {canDelete && (
                    <IconAction
                      label={t('common:actions.delete')}
                      variant="subtle"
                      color="red"
                      onClick={() => void dialogs.remove(row)}
                      testId={rowTestId('delete', row)}
                    >
                      <IconTrash size={16} />
                    </IconAction>
                  )}
                </PinnedActionsCell>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableBox>
      <TableFooter total={data?.total ?? 0} pageNum={pageNum} pageSize={pageSize} onChange={onPage} />
    </>
  );
}
