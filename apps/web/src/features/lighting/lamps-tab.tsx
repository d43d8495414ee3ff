import { lazy, Suspense, useState } from 'react';
import { Button, Checkbox, Group, Table, Text } from '@mantine/core';
import {
  IconAdjustments,
  IconBulb,
  IconBulbOff,
  IconEdit,
  IconEye,
  IconFolders,
  IconKey,
  IconLink,
  IconPlus,
  IconRefresh,
  IconRouter,
  IconTrash,
  IconTransfer,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, DIMMING_LEVELS, DeviceFamily, DeviceType, type LampAction, type LampRow } from '@sc/contracts';
import { Select } from '@/components/select';
import { TableFooter } from '@/components/table-footer';
import { confirmCommand, confirmDelete, deleteAfterConfirm } from '@/components/confirm';
import { usePageSelection } from '@/components/selection';
import { IconAction, RowActionsCell } from '@/components/row-actions';
import { TableEmptyRow } from '@/components/table-parts';
import { notifyError, notifySuccess } from '@/components/notify';
import { useButton } from '@/auth/session-store';
import { paging } from '@/navigation/search-params';
import { formatTime } from '@/utils/format';
import { DispatchDrawer } from '@/features/dispatch/dispatch-panel';
import { describeLampDispatch, lightingKeys, useDeleteLamp, useLampControl, useLampPage } from './api';
import { useBatchDeleteLamps } from './equipment-api';
import { FaultList, LampStatusBadge, NetworkBadge } from './lamp-badges';
import { LampFilters } from './lamp-filters';
import type { EquipmentSearch, LampSearch } from './search';
import { useRegionLabel } from '@/features/region/area-tree';

// Dialogs and the drawer load when someone first opens one.
const LampFormModal = lazy(() => import('./lamp-form-modal').then((m) => ({ default: m.LampFormModal })));
const LampDetailDrawer = lazy(() => import('./lamp-detail-drawer').then((m) => ({ default: m.LampDetailDrawer })));
const EditMqttModal = lazy(() => import('./lamp-dialogs').then((m) => ({ default: m.EditMqttModal })));
const BindGatewayModal = lazy(() => import('./lamp-dialogs').then((m) => ({ default: m.BindGatewayModal })));
const BatchGatewayModal = lazy(() => import('./lamp-dialogs').then((m) => ({ default: m.BatchGatewayModal })));
const MoveGroupModal = lazy(() => import('./lamp-dialogs').then((m) => ({ default: m.MoveGroupModal })));
// The imports module's button (and, on click, its dialog) arrives just after the list.
const ImportSlot = lazy(() => import('./import-slot').then((m) => ({ default: m.ImportSlot })));

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
  const regionLabel = useRegionLabel();
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
  const columns = 28;

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
          <ImportSlot kind="lamp" onImported={refresh} />
        </Suspense>
        {can.sync && (
          <Button variant="light" leftSection={<IconTransfer size={16} />} onClick={send('sync')} data-testid="lamp-sync">
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
            leftSection={<IconAdjustments size={16} />}
            w={170}
            data-testid="lamp-dim"
          />
        )}
        {can.batchGateway && (
          <Button
            variant="default"
            leftSection={<IconRouter size={16} />}
            onClick={withSelection(() => setDialog({ kind: 'gateway' }))}
            data-testid="lamp-batch-gateway"
          >
            {t('lighting:equipment.batchUpdateGateway')}
          </Button>
        )}
        {can.edit && (
          <Button
            variant="default"
            leftSection={<IconFolders size={16} />}
            onClick={withSelection(() => setDialog({ kind: 'group' }))}
            data-testid="lamp-move-group"
          >
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
      <Table.ScrollContainer minWidth={2600} type="native">
        <Table striped data-testid="lamp-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>
                <Checkbox checked={allOnPage} onChange={togglePage} aria-label={t('lighting:control.selectPage')} data-testid="lamp-select-page" />
              </Table.Th>
              <Table.Th>{t('lighting:fields.lampName')}</Table.Th>
              <Table.Th>{t('lighting:fields.clientId')}</Table.Th>
              <Table.Th>{t('lighting:fields.addr')}</Table.Th>
              <Table.Th>{t('lighting:fields.mac')}</Table.Th>
              <Table.Th>{t('lighting:fields.gatewayId')}</Table.Th>
              <Table.Th>{t('lighting:fields.lampControlId')}</Table.Th>
              <Table.Th>{t('lighting:fields.loop')}</Table.Th>
              <Table.Th>{t('lighting:fields.group')}</Table.Th>
              <Table.Th>{t('lighting:fields.region')}</Table.Th>
              <Table.Th>{t('lighting:fields.position')}</Table.Th>
              <Table.Th>{t('lighting:fields.status')}</Table.Th>
              <Table.Th>{t('lighting:fields.networkStatus')}</Table.Th>
              <Table.Th>{t('lighting:fields.switchState')}</Table.Th>
              <Table.Th>{t('lighting:fields.bri')}</Table.Th>
              <Table.Th>{t('lighting:fields.level')}</Table.Th>
              <Table.Th>{t('lighting:fields.color')}</Table.Th>
              <Table.Th>{t('lighting:fields.voltage')}</Table.Th>
              <Table.Th>{t('lighting:fields.current')}</Table.Th>
              <Table.Th>{t('lighting:fields.power')}</Table.Th>
              <Table.Th>{t('lighting:fields.powerFactor')}</Table.Th>
              <Table.Th>{t('lighting:fields.signal')}</Table.Th>
              <Table.Th>{t('lighting:fields.totalIllumination')}</Table.Th>
              <Table.Th>{t('lighting:fields.versions')}</Table.Th>
              <Table.Th>{t('lighting:fields.strategyId')}</Table.Th>
              <Table.Th>{t('lighting:fields.faults')}</Table.Th>
              <Table.Th>{t('lighting:fields.reportedAt')}</Table.Th>
              {rowActions && <Table.Th ta="right">{t('common:actions.operations')}</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 && !lamps.isLoading && (
              <TableEmptyRow colSpan={columns} py="lg">
                {t('lighting:list.noLamps')}
              </TableEmptyRow>
            )}
            {rows.map((lamp) => (
              <Table.Tr key={lamp.id} data-testid={`lamp-row-${lamp.clientId}`}>
                <Table.Td>
                  <Checkbox checked={selected.has(lamp.id)} onChange={() => toggle(lamp.id)} aria-label={lamp.lampName} data-testid="lamp-select" />
                </Table.Td>
                <Table.Td fw={500}>{lamp.lampName}</Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {lamp.clientId}
                  </Text>
                </Table.Td>
                <Table.Td>{lamp.addr || '—'}</Table.Td>
                <Table.Td ff="monospace">{lamp.mac || '—'}</Table.Td>
                <Table.Td ff="monospace" data-testid="lamp-gateway">
                  {lamp.gatewayId || '—'}
                </Table.Td>
                <Table.Td>{lamp.lampControlId || '—'}</Table.Td>
                <Table.Td>{lamp.loopName ?? '—'}</Table.Td>
                <Table.Td data-testid="lamp-group">{lamp.groupName ?? '—'}</Table.Td>
                <Table.Td>{regionLabel(lamp.regionName)}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {lamp.latitude === null || lamp.longitude === null ? '—' : `${lamp.latitude.toFixed(4)}, ${lamp.longitude.toFixed(4)}`}
                </Table.Td>
                <Table.Td>
                  <LampStatusBadge status={lamp.status} />
                </Table.Td>
                <Table.Td>
                  <NetworkBadge networkStatus={lamp.networkStatus} />
                </Table.Td>
                <Table.Td>{t(lamp.switchState === 1 ? 'lighting:switch.on' : 'lighting:switch.off')}</Table.Td>
                <Table.Td>{`${lamp.bri} %`}</Table.Td>
                <Table.Td>{lamp.level === null ? '—' : `${lamp.level} %`}</Table.Td>
                <Table.Td>{lamp.color || '—'}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{reading(lamp.telemetry?.voltage, 1, 'V')}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{reading(lamp.telemetry?.current, 3, 'A')}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }} data-testid="lamp-telemetry">
                  {reading(lamp.telemetry?.power, 1, 'W')}
                </Table.Td>
                <Table.Td>{reading(lamp.telemetry?.powerFactor, 2, '')}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{lamp.telemetry ? `${lamp.telemetry.signal} dBm` : '—'}</Table.Td>
                <Table.Td>
                  {lamp.totalIlluminationHours === null ? '—' : t('lighting:equipment.hours', { count: lamp.totalIlluminationHours })}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {lamp.hardwareVersion || lamp.softwareVersion ? `${lamp.hardwareVersion} / ${lamp.softwareVersion}` : '—'}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {lamp.strategyId === null ? '—' : `${lamp.strategyName ?? `#${lamp.strategyId}`} · ${t(`lighting:mode.${lamp.mode}`)}`}
                </Table.Td>
                <Table.Td>
                  <FaultList faults={lamp.faults} />
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{lamp.reportedAt ? formatTime(lamp.reportedAt) : t('lighting:list.never')}</Table.Td>
                {rowActions && (
                  <RowActionsCell>
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
                          void deleteAfterConfirm(
                            lamp.lampName,
                            () => remove.mutateAsync(lamp.id),
                            t('lighting:list.deleted', { name: lamp.lampName }),
                          )
                        }
                        testId="lamp-delete"
                      >
                        <IconTrash size={18} />
                      </IconAction>
                    )}
                  </RowActionsCell>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <TableFooter total={lamps.data?.total ?? 0} pageNum={pageNum} pageSize={pageSize} onChange={(page) => onSearch({ ...query, ...page })} />
      <DispatchDrawer
        family={DeviceFamily.Lamp}
        dispatchId={dispatch ?? null}
        describe={describeLampDispatch}
        onClose={() => onDispatch(undefined)}
      />
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
