import { Suspense, lazy } from 'react';
import { Button, Grid, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, DeviceFamily, TerminalStatus, type TerminalRow } from '@sc/contracts';
import { OptionFilter } from '@/components/filter-fields';
import { PagePanel } from '@/components/page-panel';
import { DeviceListFilters, DeviceTable, useDeviceList } from '@/components/device-list';
import type { Column } from '@/components/table-columns';
import { EditDeleteCell } from '@/components/row-actions';
import { TableFooter } from '@/components/table-footer';
import { NameCode } from '@/components/table-parts';
import { RenewMqttAction } from '@/components/renew-mqtt-action';
import { draftFields } from '@/components/use-paged-filters';
import { useButton } from '@/auth/session-store';
import { paging } from '@/navigation/search-params';
import { DispatchPanel } from '@/features/dispatch/dispatch-panel';
import { LazyExportButton, LazyImportButton } from '@/features/imports/lazy-buttons';
import { NetworkBadge } from '@/features/lighting/lamp-badges';
import { terminalKeys, useDeleteTerminal, useLiveTerminals, useTerminalPage } from './api';
import { PlayingCell, TerminalStatusBadge } from './terminal-badges';
import { describeTerminalDispatch } from './terminal-dispatch';

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
  const queryClient = useQueryClient();
  const canAdd = useButton(ButtonPermission.Add);
  const canEdit = useButton(ButtonPermission.Edit);
  const canDelete = useButton(ButtonPermission.Delete);
  useLiveTerminals();

  const rows = terminals.data?.list ?? [];
  const list = useDeviceList({
    search,
    go: (next) => void navigate({ search: next }),
    rows,
    table: 'terminals',
    columns: useTerminalColumns(),
    remove: (id) => remove.mutateAsync(id),
    deleteText: (terminal) => t('broadcast:list.deleteDetail', { name: terminal.terminalName }),
  });
  const { selection, columns, draft, setDraft, apply, edit } = list;
  const field = draftFields(draft, setDraft);
  const { selected } = selection;

  return (
    <PagePanel
      title={t('common:route.terminalManagement')}
      actions={
        <>
          {canAdd && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => edit(null)} data-testid="terminal-add">
              {t('broadcast:list.add')}
            </Button>
          )}
          <Suspense fallback={null}>
            <LazyImportButton
              kind="terminal"
              onImported={() => {
                // New terminals, and the groups they joined (their module loads only then: the page does not carry it).
                void queryClient.invalidateQueries({ queryKey: terminalKeys.all });
                void import('./groups-api').then(({ broadcastGroupKeys }) => queryClient.invalidateQueries({ queryKey: broadcastGroupKeys.all }));
              }}
            />
            <LazyExportButton kind="terminal" search={search} />
          </Suspense>
        </>
      }
    >
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, xl: 8 }}>
          <Stack gap="sm">
            <DeviceListFilters
              testId="terminal"
              nameKey="terminalName"
              nameLabel={t('broadcast:fields.terminalName')}
              regionLabel={t('broadcast:fields.region')}
              draft={draft}
              setDraft={setDraft}
              apply={apply}
            >
              <OptionFilter
                label={t('broadcast:fields.status')}
                placeholder={t('broadcast:list.allStatuses')}
                options={Object.values(TerminalStatus).map((status) => ({ value: status, label: t(`broadcast:status.${status}`) }))}
                {...field('status')}
                width={160}
                testId="terminal-status-filter"
              />
            </DeviceListFilters>
            <DeviceTable
              testId="terminal"
              rows={rows}
              loading={terminals.isLoading}
              selection={selection}
              columns={columns}
              texts="broadcast:list"
              rowLabel={(terminal) => terminal.terminalName}
              rowTestId={(terminal) => `terminal-row-${terminal.terminalId}`}
              withActions={canEdit || canDelete}
              actions={(terminal) => (
                <EditDeleteCell
                  canEdit={canEdit}
                  canDelete={canDelete}
                  onEdit={() => edit(terminal)}
                  onDelete={() => void list.deleteRow(terminal)}
                  editLabel={t('broadcast:list.edit')}
                >
                  <RenewMqttAction family={DeviceFamily.Broadcast} id={terminal.id} name={terminal.terminalName} testId="terminal-renew-mqtt" />
                </EditDeleteCell>
              )}
            />
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
      <Suspense fallback={null}>{list.formOpen && <TerminalFormModal opened terminal={list.editing} onClose={list.closeForm} />}</Suspense>
    </PagePanel>
  );
}
