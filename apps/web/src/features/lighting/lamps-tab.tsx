import { lazy, Suspense, useState } from 'react';
import { Button, Checkbox, Group, Table, Text } from '@mantine/core';
import { IconBulb, IconBulbOff, IconEdit, IconEye, IconKey, IconLink, IconPlus, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, DIMMING_LEVELS, DeviceFamily, DeviceType, type LampAction, type LampRow } from '@sc/contracts';
import { Select } from '@/components/select';
import { TableFooter } from '@/components/table-footer';
import { confirmCommand, confirmDelete, deleteAfterConfirm } from '@/components/confirm';
import { usePageSelection } from '@/components/selection';
import { IconAction } from '@/components/row-actions';
import { ColumnCells, ColumnHeads, OneLine, PinnedActionsCell, TableBox, useTableColumns, type Column } from '@/components/table-columns';
import { NameCode, TableEmptyRow } from '@/components/table-parts';
import { notifyError, notifySuccess } from '@/components/notify';
import { useButton } from '@/auth/session-store';
import { paging } from '@/navigation/search-params';
import { formatTime } from '@/utils/format';
import { describeLampDispatch, lightingKeys, useDeleteLamp, useLampControl, useLampPage } from './api';
import { useBatchDeleteLamps } from './equipment-api';
import { FaultList, LampStatusBadge, NetworkBadge } from './lamp-badges';
import { LampFilters } from './lamp-filters';
import type { EquipmentSearch, LampSearch } from './search';
import { useRegionLabel } from '@/features/region/area-tree';
import { loadNamespaces } from '@/i18n';
import { LazyExportButton, LazyImportButton } from '@/features/imports/lazy-buttons';

// Dialogs and the drawers load when someone first opens one (the dispatch drawer with the first command).
const DispatchDrawer = lazy(() => loadNamespaces(['dispatch']).then(() => import('@/features/dispatch/dispatch-drawer')));
const LampFormModal = lazy(() => import('./lamp-form-modal').then((m) => ({ default: m.LampFormModal })));
const LampDetailDrawer = lazy(() => import('./lamp-detail-drawer').then((m) => ({ default: m.LampDetailDrawer })));
const EditMqttModal = lazy(() => import('./lamp-dialogs').then((m) => ({ default: m.EditMqttModal })));
const BindGatewayModal = lazy(() => import('./lamp-dialogs').then((m) => ({ default: m.BindGatewayModal })));
const BatchGatewayModal = lazy(() => import('./lamp-dialogs').then((m) => ({ default: m.BatchGatewayModal })));
const MoveGroupModal = lazy(() => import('./lamp-dialogs').then((m) => ({ default: m.MoveGroupModal })));

type Dialog =
  | { kind: 'form'; lamp: LampRow | null }
  | { kind: 'view'; lamp: LampRow }
  | { kind: 'mqtt'; lamp: LampRow }
  | { kind: 'bind'; lamp: LampRow }
  | { kind: 'gateway' }
  | { kind: 'group' }
  | null;

const reading = (value: number | undefined, digits: number, unit: string) => (value === undefined ? '—' : `${value.toFixed(digits)} ${unit}`.trim());

/**
 * Every field of the spec as a column; what identifies a lamp and what an operator watches show by default, the
 * rest is a tick away in the column chooser.
 */
function useLampColumns(): Column<LampRow>[] {
  const { t } = useTranslation();
  const regionLabel = useRegionLabel();
  return [
    {
      key: 'name',
      label: t('lighting:fields.lampName'),
      always: true,
      cell: (lamp) => <NameCode name={lamp.lampName} code={lamp.clientId} fw={500} />,
    },
    { key: 'addr', label: t('lighting:fields.addr'), hidden: true, cell: (lamp) => <OneLine>{lamp.addr || '—'}</OneLine> },
    { key: 'mac', label: t('lighting:fields.mac'), hidden: true, td: { ff: 'monospace' }, cell: (lamp) => lamp.mac || '—' },
    {
      key: 'gateway',
      label: t('lighting:fields.gatewayId'),
      td: { ff: 'monospace', 'data-testid': 'lamp-gateway' },
      cell: (lamp) => lamp.gatewayId || '—',
    },
    { key: 'lampControlId', label: t('lighting:fields.lampControlId'), hidden: true, cell: (lamp) => lamp.lampControlId || '—' },
    { key: 'loop', label: t('lighting:fields.loop'), hidden: true, cell: (lamp) => lamp.loopName ?? '—' },
    {
      key: 'group',
      label: t('lighting:fields.group'),
      td: { 'data-testid': 'lamp-group' },
      cell: (lamp) => <OneLine maw="10rem">{lamp.groupName ?? '—'}</OneLine>,
    },
    { key: 'region', label: t('lighting:fields.region'), cell: (lamp) => <OneLine maw="10rem">{regionLabel(lamp)}</OneLine> },
    {
      key: 'position',
      label: t('lighting:fields.position'),
      hidden: true,
      cell: (lamp) => (lamp.latitude === null || lamp.longitude === null ? '—' : `${lamp.latitude.toFixed(4)}, ${lamp.longitude.toFixed(4)}`),
    },
    { key: 'status', label: t('lighting:fields.status'), cell: (lamp) => <LampStatusBadge status={lamp.status} /> },
    { key: 'network', label: t('lighting:fields.networkStatus'), cell: (lamp) => <NetworkBadge networkStatus={lamp.networkStatus} /> },
    {
      key: 'switch',
      label: t('lighting:fields.switchState'),
      cell: (lamp) => t(lamp.switchState === 1 ? 'lighting:switch.on' : 'lighting:switch.off'),
    },
    { key: 'bri', label: t('lighting:fields.bri'), cell: (lamp) => `${lamp.bri} %` },
    { key: 'level', label: t('lighting:fields.level'), hidden: true, cell: (lamp) => (lamp.level === null ? '—' : `${lamp.level} %`) },
    { key: 'color', label: t('lighting:fields.color'), hidden: true, cell: (lamp) => lamp.color || '—' },
    { key: 'voltage', label: t('lighting:fields.voltage'), hidden: true, cell: (lamp) => reading(lamp.telemetry?.voltage, 1, 'V') },
    { key: 'current', label: t('lighting:fields.current'), hidden: true, cell: (lamp) => reading(lamp.telemetry?.current, 3, 'A') },
    {
      key: 'power',
      label: t('lighting:fields.power'),
      hidden: true,
      td: { 'data-testid': 'lamp-telemetry' },
      cell: (lamp) => reading(lamp.telemetry?.power, 1, 'W'),
    },
    { key: 'powerFactor', label: t('lighting:fields.powerFactor'), hidden: true, cell: (lamp) => reading(lamp.telemetry?.powerFactor, 2, '') },
    { key: 'signal', label: t('lighting:fields.signal'), hidden: true, cell: (lamp) => (lamp.telemetry ? `${lamp.telemetry.signal} dBm` : '—') },
    {
      key: 'illumination',
      label: t('lighting:fields.totalIllumination'),
      hidden: true,
      cell: (lamp) => (lamp.totalIlluminationHours === null ? '—' : t('lighting:equipment.hours', { count: lamp.totalIlluminationHours })),
    },
    {
      key: 'versions',
      label: t('lighting:fields.versions'),
      hidden: true,
      cell: (lamp) => (lamp.hardwareVersion || lamp.softwareVersion ? `${lamp.hardwareVersion} / ${lamp.softwareVersion}` : '—'),
    },
    {
      key: 'strategy',
      label: t('lighting:fields.strategyId'),
      hidden: true,
      cell: (lamp) => (lamp.strategyId === null ? '—' : `${lamp.strategyName ?? `#${lamp.strategyId}`} · ${t(`lighting:mode.${lamp.mode}`)}`),
    },
    { key: 'faults', label: t('lighting:fields.faults'), hidden: true, cell: (lamp) => <FaultList faults={lamp.faults} /> },
    {
      key: 'reportedAt',
      label: t('lighting:fields.reportedAt'),
      hidden: true,
      cell: (lamp) => (lamp.reportedAt ? formatTime(lamp.reportedAt) : t('lighting:list.never')),
    },
  ];
}

/**
 * The single lamps: every field of the spec, selection, and each equipment button the caller has. A command to the
 * selected lamps is confirmed with their number, then its dispatch is followed live in a drawer (`onDispatch`).
 */
export function LampsTab({
  search,
  onSearch,
  onDispatch,
}: {
  search: EquipmentSearch;
  onSearch: (next: LampSearch) => void;
  onDispatch: (dispatchId: string | undefined) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { pageNum, pageSize } = paging(search);
  const { tab: _tab, dispatch, ...query } = search;
  const lamps = useLampPage({ ...query, pageNum, pageSize });
  const remove = useDeleteLamp();
  const batchDelete = useBatchDeleteLamps();
  const control = useLampControl();
  const can = {
    view: useButton(ButtonPermission.View),
    add: useButton(ButtonPermission.Add),
    refresh: useButton(ButtonPermission.Refresh),
    editMqtt: useButton(ButtonPermission.EditMqtt),
    edit: useButton(ButtonPermission.Edit),
    delete: useButton(ButtonPermission.Delete),
    batchGateway: useButton(ButtonPermission.BatchUpdateGateway),
    sync: useButton(ButtonPermission.SyncData),
    bind: useButton(ButtonPermission.BindGateway),
    batchDelete: useButton(ButtonPermission.BatchDelete),
    open: useButton(ButtonPermission.OpenLamp),
    close: useButton(ButtonPermission.CloseLamp),
    openAndClose: useButton(ButtonPermission.OpenAndClose),
  };
  const [dialog, setDialogState] = useState<Dialog>(null);
  const [used, setUsed] = useState(false);
  const setDialog = (next: Dialog) => {
    setUsed(true);
    setDialogState(next);
  };

  const rows = lamps.data?.list ?? [];
  const { selected, setSelected, toggle, allOnPage, togglePage } = usePageSelection(rows.map((l) => l.id));
  /** Batch buttons need at least one selected lamp ('Please select a list item'). */
  const withSelection = (run: (ids: number[]) => void) => () => {
    if (selected.size === 0) return notifyError(t('messages:selectListItem'));
    run([...selected]);
  };
  const send = (action: LampAction, level?: number) =>
    withSelection(async (ids) => {
      const actionText = t(`lighting:dispatch.action.${action}`, { level });
      if (!(await confirmCommand(t('lighting:control.confirmLamps', { action: actionText, count: ids.length })))) return;
      try {
        const { dispatchId } = await control.mutateAsync({ ids, action, ...(level === undefined ? {} : { level: level as never }) });
        notifySuccess(t('messages:instructionSent'));
        onDispatch(dispatchId);
      } catch {
        // The refusal is already on screen.
      }
    });
  const delSelected = withSelection(async (ids) => {
    if (!(await confirmDelete(t('lighting:control.selected', { count: ids.length })))) return;
    try {
      await batchDelete.mutateAsync(ids);
      setSelected(new Set());
      notifySuccess(t('common:feedback.deleted'));
    } catch {
      // The refusal is already on screen.
    }
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: lightingKeys.all });
  const closeDialog = () => setDialogState(null);
  const rowActions = can.view || can.edit || can.editMqtt || can.bind || can.delete;
  const columns = useTableColumns('lamps', useLampColumns());

  return (
    <>
      <LampFilters search={search} onApply={onSearch} equipment />
      <Group gap="xs" mb="sm" data-testid="lamp-toolbar">
        {can.add && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'form', lamp: null })} data-testid="lamp-add">
            {t('lighting:list.add')}
          </Button>
        )}
        {can.refresh && (
          <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={refresh} data-testid="lamp-refresh">
            {t('lighting:equipment.refresh')}
          </Button>
        )}
        <Suspense fallback={null}>
          <LazyImportButton kind="light" onImported={refresh} />
          <LazyExportButton kind="light" search={search} />
        </Suspense>
        {can.sync && (
          <Button variant="light" onClick={send('sync')} data-testid="lamp-sync">
            {t('lighting:equipment.syncData')}
          </Button>
        )}
        {can.open && (
          <Button variant="light" color="yellow" leftSection={<IconBulb size={16} />} onClick={send('on')} data-testid="lamp-open">
            {t('lighting:control.open')}
          </Button>
        )}
        {can.close && (
          <Button variant="light" color="gray" leftSection={<IconBulbOff size={16} />} onClick={send('off')} data-testid="lamp-close">
            {t('lighting:control.close')}
          </Button>
        )}
        {can.openAndClose && (
          <Select
            placeholder={t('lighting:equipment.openAndClose')}
            aria-label={t('lighting:equipment.openAndClose')}
            data={DIMMING_LEVELS.map((level) => ({ value: String(level), label: t('lighting:control.levelValue', { level }) }))}
            value={null}
            onChange={(v) => v !== null && send('dim', Number(v))()}
            w={170}
            data-testid="lamp-dim"
          />
        )}
        {can.batchGateway && (
          <Button variant="default" onClick={withSelection(() => setDialog({ kind: 'gateway' }))} data-testid="lamp-batch-gateway">
            {t('lighting:equipment.batchUpdateGateway')}
          </Button>
        )}
        {can.edit && (
          <Button variant="default" onClick={withSelection(() => setDialog({ kind: 'group' }))} data-testid="lamp-move-group">
            {t('lighting:equipment.moveToGroup')}
          </Button>
        )}
        {can.batchDelete && (
          <Button variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={delSelected} data-testid="lamp-batch-delete">
            {t('lighting:equipment.batchDelete')}
          </Button>
        )}
        {selected.size > 0 && (
          <Text size="sm" c="dimmed" data-testid="lamp-selected">
            {t('lighting:control.selected', { count: selected.size })}
          </Text>
        )}
      </Group>
      <TableBox>
        <Table striped data-testid="lamp-table">
          <ColumnHeads
            columns={columns}
            actions={rowActions}
            lead={
              <Table.Th w={40}>
                <Checkbox checked={allOnPage} onChange={togglePage} aria-label={t('lighting:control.selectPage')} data-testid="lamp-select-page" />
              </Table.Th>
            }
          />
          <Table.Tbody>
            {rows.length === 0 && !lamps.isLoading && (
              <TableEmptyRow colSpan={columns.span(1)} py="lg">
                {t('lighting:list.noLamps')}
              </TableEmptyRow>
            )}
            {rows.map((lamp) => (
              <Table.Tr key={lamp.id} data-testid={`lamp-row-${lamp.clientId}`}>
                <Table.Td>
                  <Checkbox checked={selected.has(lamp.id)} onChange={() => toggle(lamp.id)} aria-label={lamp.lampName} data-testid="lamp-select" />
                </Table.Td>
                <ColumnCells columns={columns} row={lamp} />
                <PinnedActionsCell>
                  {can.view && (
                    <IconAction
                      label={t('lighting:equipment.view')}
                      variant="subtle"
                      onClick={() => setDialog({ kind: 'view', lamp })}
                      testId="lamp-view"
                    >
                      <IconEye size={18} />
                    </IconAction>
                  )}
                  {can.edit && (
                    <IconAction label={t('common:actions.edit')} onClick={() => setDialog({ kind: 'form', lamp })} testId="lamp-edit">
                      <IconEdit size={18} />
                    </IconAction>
                  )}
                  {can.editMqtt && (
                    <IconAction
                      label={t('lighting:equipment.editMqtt')}
                      variant="light"
                      onClick={() => setDialog({ kind: 'mqtt', lamp })}
                      testId="lamp-edit-mqtt"
                    >
                      <IconKey size={18} />
                    </IconAction>
                  )}
                  {can.bind && (
                    <IconAction
                      label={t('lighting:equipment.bindGateway')}
                      variant="light"
                      onClick={() => setDialog({ kind: 'bind', lamp })}
                      testId="lamp-bind"
                    >
                      <IconLink size={18} />
                    </IconAction>
                  )}
                  {can.delete && (
                    <IconAction
                      label={t('common:actions.delete')}
                      color="red"
                      onClick={() =>
                        void deleteAfterConfirm(lamp.lampName, () => remove.mutateAsync(lamp.id), t('lighting:list.deleted', { name: lamp.lampName }))
                      }
                      testId="lamp-delete"
                    >
                      <IconTrash size={18} />
                    </IconAction>
                  )}
                </PinnedActionsCell>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableBox>
      <TableFooter total={lamps.data?.total ?? 0} pageNum={pageNum} pageSize={pageSize} onChange={(page) => onSearch({ ...query, ...page })} />
      {dispatch && (
        <Suspense fallback={null}>
          <DispatchDrawer family={DeviceFamily.Lamp} dispatchId={dispatch} describe={describeLampDispatch} onClose={() => onDispatch(undefined)} />
        </Suspense>
      )}
      {used && (
        <Suspense fallback={null}>
          <LampFormModal opened={dialog?.kind === 'form'} lamp={dialog?.kind === 'form' ? dialog.lamp : null} onClose={closeDialog} />
          <LampDetailDrawer lampId={dialog?.kind === 'view' ? dialog.lamp.id : null} onClose={closeDialog} />
          <EditMqttModal lamp={dialog?.kind === 'mqtt' ? dialog.lamp : null} onClose={closeDialog} />
          <BindGatewayModal lamp={dialog?.kind === 'bind' ? dialog.lamp : null} onClose={closeDialog} />
          <BatchGatewayModal ids={[...selected]} opened={dialog?.kind === 'gateway'} onClose={closeDialog} />
          <MoveGroupModal
            ids={[...selected]}
            type={DeviceType.SingleLamp}
            opened={dialog?.kind === 'group'}
            onClose={(done) => {
              if (done) setSelected(new Set());
              closeDialog();
            }}
          />
        </Suspense>
      )}
    </>
  );
}
