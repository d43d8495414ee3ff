import { Suspense, lazy, useState } from 'react';
import { Button, Grid, Stack, Table, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link, getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, DeviceFamily, TerminalStatus, type TerminalRow } from '@sc/contracts';
import { AreaCascader } from '@/components/area-cascader';
import { confirmDelete } from '@/components/confirm';
import { notifySuccess } from '@/components/notify';
import { FilterBar, PagePanel } from '@/components/page-panel';
import { Select } from '@/components/select';
import { SelectPageHeader, SelectableRow, SelectionSummary, usePageSelection } from '@/components/selection';
import { ColumnCells, ColumnHeads, TableBox, useTableColumns, type Column } from '@/components/table-columns';
import { EditDeleteCell } from '@/components/row-actions';
import { TableFooter } from '@/components/table-footer';
import { NameCode, TableEmptyRow } from '@/components/table-parts';
import { RenewMqttAction } from '@/components/renew-mqtt-action';
import { useButton } from '@/auth/session-store';
import { compact, paging } from '@/navigation/search-params';
import { DispatchPanel } from '@/features/dispatch/dispatch-panel';
import { NetworkBadge } from '@/features/lighting/lamp-badges';
import { useDeleteTerminal, useLiveTerminals, useTerminalPage } from './api';
import { PlayingCell, TerminalStatusBadge } from './terminal-badges';
import { describeTerminalDispatch } from './terminal-dispatch';
import type { TerminalSearch } from './search';

// The form loads when first opened, and the command card (number inputs) beside the page, keeping its first load small.
const TerminalFormModal = lazy(() => import('./terminal-form-modal').then((m) => ({ default: m.TerminalFormModal })));
const TerminalCommandCard = lazy(() => import('./terminal-command-card').then((m) => ({ default: m.TerminalCommandCard })));

const route = getRouteApi('/_auth/_shell/broadcastManage/terminalManagement');

/** The terminals' columns: name, status, what they play, broadcast volume and IP by default; the spec's other fields in the chooser. */
function useTerminalColumns(): Column<TerminalRow>[] {
  const { t } = useTranslation();
  return [
    {
      key: 'name',
      label: t('broadcast:fields.terminalName'),
      always: true,
      cell: (terminal) => (
        <Link to="/broadcastManage/terminalDetail" search={{ id: terminal.id }} style={{ color: 'inherit', textDecoration: 'none' }}>
          <NameCode name={terminal.terminalName} code={terminal.terminalId} fw={500} />
        </Link>
      ),
    },
    { key: 'status', label: t('broadcast:fields.status'), cell: (terminal) => <TerminalStatusBadge status={terminal.status} /> },
    { key: 'playing', label: t('broadcast:fields.playing'), wrap: true, cell: (terminal) => <PlayingCell terminal={terminal} /> },
    {
      key: 'broadcastVolume',
      label: t('broadcast:fields.broadcastVolume'),
      align: 'right',
      td: { 'data-testid': 'terminal-broadcast-volume' },
      cell: (terminal) => `${terminal.broadcastVolume} %`,
    },
    {
      key: 'interphoneVolume',
      label: t('broadcast:fields.interphoneVolume'),
      hidden: true,
      align: 'right',
      cell: (terminal) => `${terminal.interphoneVolume} %`,
    },
    { key: 'terminalIP', label: t('broadcast:fields.terminalIP'), td: { ff: 'monospace' }, cell: (terminal) => terminal.terminalIP },
    { key: 'region', label: t('broadcast:fields.region'), hidden: true, cell: (terminal) => terminal.regionName ?? '—' },
    { key: 'pole', label: t('broadcast:fields.pole'), hidden: true, cell: (terminal) => terminal.poleCode ?? '—' },
    {
      key: 'network',
      label: t('lighting:fields.networkStatus'),
      hidden: true,
      cell: (terminal) => <NetworkBadge networkStatus={terminal.networkStatus} />,
    },
    { key: 'callCode', label: t('broadcast:fields.callCode'), hidden: true, cell: (terminal) => terminal.callCode || '—' },
    {
      key: 'isDefault',
      label: t('broadcast:fields.isDefault'),
      hidden: true,
      cell: (terminal) => t(terminal.isDefault ? 'broadcast:list.yes' : 'broadcast:list.no'),
    },
    { key: 'priority', label: t('broadcast:fields.priority'), hidden: true, align: 'right', cell: (terminal) => terminal.priority },
    { key: 'relayServer', label: t('broadcast:fields.relayServer'), hidden: true, cell: (terminal) => terminal.relayServer || '—' },
    { key: 'terminalType', label: t('broadcast:fields.terminalType'), hidden: true, cell: (terminal) => terminal.terminalType || '—' },
  ];
}

/** /broadcastManage/terminalManagement: the terminals with their status and what they play, live; volumes and playback. */
export function TerminalManagePage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { pageNum, pageSize } = paging(search);
  const terminals = useTerminalPage({ terminalName: search.terminalName, regionId: search.regionId, status: search.status, pageNum, pageSize });
  const remove = useDeleteTerminal();
  const canAdd = useButton(ButtonPermission.Add);
  const canEdit = useButton(ButtonPermission.Edit);
  const canDelete = useButton(ButtonPermission.Delete);
  useLiveTerminals();

  const [editing, setEditing] = useState<TerminalRow | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [draft, setDraft] = useState<TerminalSearch>(search);

  const rows = terminals.data?.list ?? [];
  const selection = usePageSelection(rows.map((r) => r.id));
  const columns = useTableColumns('terminals', useTerminalColumns());
  const { selected, setSelected } = selection;
  const apply = (next: TerminalSearch) => void navigate({ search: compact({ ...next, pageNum: undefined, dispatch: search.dispatch }) });

  const deleteTerminal = async (terminal: TerminalRow) => {
    if (!(await confirmDelete(t('broadcast:list.deleteDetail', { name: terminal.terminalName })))) return;
    await remove.mutateAsync(terminal.id);
    setSelected((current) => new Set([...current].filter((id) => id !== terminal.id)));
    notifySuccess(t('common:feedback.deleted'));
  };
  const edit = (terminal: TerminalRow | null) => {
    setEditing(terminal);
    setFormOpen(true);
  };

  return (
    <PagePanel
      title={t('common:route.terminalManagement')}
      actions={
        canAdd && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => edit(null)} data-testid="terminal-add">
            {t('broadcast:list.add')}
          </Button>
        )
      }
    >
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, xl: 8 }}>
          <Stack gap="sm">
            <FilterBar
              onSubmit={() => apply({ ...draft, terminalName: draft.terminalName?.trim() || undefined })}
              onReset={() => {
                setDraft({});
                apply({});
              }}
              testId="terminal"
            >
              <TextInput
                label={t('broadcast:fields.terminalName')}
                value={draft.terminalName ?? ''}
                onChange={(e) => setDraft({ ...draft, terminalName: e.currentTarget.value })}
                name="terminalName"
                w={{ base: '100%', sm: 200 }}
              />
              <AreaCascader
                label={t('broadcast:fields.region')}
                value={draft.regionId ?? null}
                onChange={(id) => setDraft({ ...draft, regionId: id ?? undefined })}
              />
              <Select
                label={t('broadcast:fields.status')}
                placeholder={t('broadcast:list.allStatuses')}
                clearable
                data={Object.values(TerminalStatus).map((status) => ({ value: status, label: t(`broadcast:status.${status}`) }))}
                value={draft.status ?? null}
                onChange={(status) => setDraft({ ...draft, status: (status as TerminalStatus | null) ?? undefined })}
                w={{ base: '100%', sm: 160 }}
                data-testid="terminal-status-filter"
              />
            </FilterBar>
            <SelectionSummary
              selection={selection}
              text={t('broadcast:list.selected', { count: selected.size })}
              clearLabel={t('broadcast:list.clearSelection')}
              testId="terminal-selected"
            />
            <TableBox>
              <Table striped highlightOnHover data-testid="terminal-table">
                <ColumnHeads
                  columns={columns}
                  actions={canEdit || canDelete}
                  lead={<SelectPageHeader selection={selection} label={t('broadcast:list.selectPage')} />}
                />
                <Table.Tbody>
                  {rows.length === 0 && (
                    <TableEmptyRow colSpan={columns.span(1)} py="md">
                      {terminals.isLoading ? t('common:feedback.loading') : t('broadcast:list.empty')}
                    </TableEmptyRow>
                  )}
                  {rows.map((terminal) => (
                    <SelectableRow
                      key={terminal.id}
                      selection={selection}
                      id={terminal.id}
                      label={terminal.terminalName}
                      testId={`terminal-row-${terminal.terminalId}`}
                    >
                      <ColumnCells columns={columns} row={terminal} />
                      <EditDeleteCell
                        canEdit={canEdit}
                        canDelete={canDelete}
                        onEdit={() => edit(terminal)}
                        onDelete={() => void deleteTerminal(terminal)}
                        editLabel={t('broadcast:list.edit')}
                      >
                        <RenewMqttAction family={DeviceFamily.Broadcast} id={terminal.id} name={terminal.terminalName} testId="terminal-renew-mqtt" />
                      </EditDeleteCell>
                    </SelectableRow>
                  ))}
                </Table.Tbody>
              </Table>
            </TableBox>
            <TableFooter
              total={terminals.data?.total ?? 0}
              pageNum={pageNum}
              pageSize={pageSize}
              onChange={(page) => void navigate({ search: { ...search, ...page } })}
            />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, xl: 4 }}>
          <Stack gap="md">
            <Suspense fallback={null}>
              <TerminalCommandCard
                selected={[...selected]}
                onDispatched={(dispatchId) => void navigate({ search: { ...search, dispatch: dispatchId }, replace: true, resetScroll: false })}
              />
            </Suspense>
            <DispatchPanel family={DeviceFamily.Broadcast} dispatchId={search.dispatch ?? null} describe={describeTerminalDispatch} />
          </Stack>
        </Grid.Col>
      </Grid>
      <Suspense fallback={null}>{formOpen && <TerminalFormModal opened terminal={editing} onClose={() => setFormOpen(false)} />}</Suspense>
    </PagePanel>
  );
}
