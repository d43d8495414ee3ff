import { Suspense, lazy, type ReactNode } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { IconPlus, IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, DeviceFamily, type AlarmColumnRow } from '@sc/contracts';
import { useButton } from '@/auth/session-store';
import { confirmCommand } from '@/components/confirm';
import { DeviceListBody, DeviceListFilters, DeviceRowActions, DeviceTable, useDeviceList } from '@/components/device-list';
import { NetworkBadge, NetworkFilter } from '@/components/network-status';
import { notifyError, notifySuccess } from '@/components/notify';
import { PagePanel } from '@/components/page-panel';
import type { Column } from '@/components/table-columns';
import { NameCode } from '@/components/table-parts';
import { draftFields } from '@/components/use-paged-filters';
import { DispatchPanel } from '@/features/dispatch/dispatch-panel';
import { LazyExportButton, LazyImportButton } from '@/features/imports/lazy-buttons';
import { paging } from '@/navigation/search-params';
import { parseTime } from '@/utils/format';
import { describeAlarmDispatch } from './alarm-dispatch';
import { LevelBadge } from './level-badge';
import { alarmColumnKeys, useAlarmColumnCommands, useAlarmColumnPage, useDeleteAlarmColumn, useLiveAlarmColumns } from './api';

// The volume's number input loads beside the page (it is not needed for the list to show).
const VolumeCard = lazy(() => import('./volume-card').then((m) => ({ default: m.VolumeCard })));
const AlarmColumnFormModal = lazy(() => import('./alarm-column-form-modal').then((m) => ({ default: m.AlarmColumnFormModal })));

const route = getRouteApi('/_auth/_shell/alarmManage/alarmManage');

/**
 * The list's columns: name and code, network, last press, volume; the rest (presses, SIP account, …) in the chooser, so
 * the table fits a 1440-pixel screen in every language.
 */
function useAlarmColumns(): Column<AlarmColumnRow>[] {
  const { t } = useTranslation();
  return [
    { key: 'name', label: t('alarmColumns:fields.name'), always: true, cell: (row) => <NameCode name={row.name} code={row.code} fw={500} /> },
    {
      key: 'network',
      label: t('alarmColumns:fields.networkStatus'),
      cell: (row) => <NetworkBadge ns="alarmColumns" networkStatus={row.networkStatus} testId="alarm-network" />,
    },
    {
      key: 'lastPress',
      label: t('alarmColumns:fields.lastPress'),
      td: { 'data-testid': 'alarm-last-press' },
      cell: (row) =>
        row.lastPressAt ? (
          <Group gap={6} wrap="nowrap">
            {row.lastPressLevel !== null && <LevelBadge level={row.lastPressLevel} />}
            <Text size="sm">{parseTime(row.lastPressAt)}</Text>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            {t('alarmColumns:list.never')}
          </Text>
        ),
    },
    {
      key: 'pressCount',
      label: t('alarmColumns:fields.pressCount'),
      hidden: true,
      align: 'right',
      td: { 'data-testid': 'alarm-presses' },
      cell: (row) => row.pressCount,
    },
    {
      key: 'volume',
      label: t('alarmColumns:fields.volume'),
      align: 'right',
      td: { 'data-testid': 'alarm-volume' },
      cell: (row) => (row.volume === null ? '—' : `${row.volume} %`),
    },
    { key: 'sipAccount', label: t('alarmColumns:fields.sipAccount'), hidden: true, cell: (row) => row.sipAccount || '—' },
    { key: 'ipAddress', label: t('alarmColumns:fields.ipAddress'), hidden: true, td: { ff: 'monospace' }, cell: (row) => row.ipAddress || '—' },
    { key: 'region', label: t('alarmColumns:fields.region'), hidden: true, cell: (row) => row.regionName ?? '—' },
    {
      key: 'pole',
      label: t('alarmColumns:fields.pole'),
      hidden: true,
      cell: (row) => (row.poleCode ? <NameCode name={row.poleName ?? ''} code={row.poleCode} /> : t('alarmColumns:list.noPole')),
    },
    {
      key: 'position',
      label: `${t('alarmColumns:fields.latitude')} / ${t('alarmColumns:fields.longitude')}`,
      hidden: true,
      cell: (row) => (row.latitude === null ? '—' : `${row.latitude}, ${row.longitude}`),
    },
    {
      key: 'reportedAt',
      label: t('alarmColumns:fields.reportedAt'),
      hidden: true,
      cell: (row) => (row.reportedAt ? parseTime(row.reportedAt) : '—'),
    },
    { key: 'swver', label: t('alarmColumns:fields.swver'), hidden: true, cell: (row) => row.swver || '—' },
    { key: 'hwver', label: t('alarmColumns:fields.hwver'), hidden: true, cell: (row) => row.hwver || '—' },
  ];
}

/**
 * /alarmManage/alarmManage: the one-key alarm columns, online and their last press live (a press is also announced
 * as it comes); add, edit, delete, mount on a pole, export, and reboot or set the volume of the selected ones through
 * the command ledger.
 */
export function AlarmColumnsPage({ switcher }: { switcher?: ReactNode }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { pageNum, pageSize } = paging(search);
  const columns = useAlarmColumnPage({ name: search.name, regionId: search.regionId, networkStatus: search.networkStatus, pageNum, pageSize });
  const remove = useDeleteAlarmColumn();
  const commands = useAlarmColumnCommands();
  const mayReboot = useButton(ButtonPermission.OpenAndClose);
  const maySetVolume = useButton(ButtonPermission.Edit);
  const rows = columns.data?.list ?? [];

  // A press is announced by the console's incident layer (every page), with its place and a sound.
  useLiveAlarmColumns();

  const list = useDeviceList<AlarmColumnRow, typeof search>({
    search,
    go: (next, replace) => void navigate({ search: next, replace, resetScroll: !replace }),
    rows,
    table: 'alarm-columns',
    columns: useAlarmColumns(),
    remove: (id) => remove.mutateAsync(id),
    deleteText: (column) => t('alarmColumns:list.delete', { name: column.name }),
  });
  const { selection, draft, setDraft } = list;
  const field = draftFields(draft, setDraft);

  /** The selected columns, once the operator confirmed `detail` for them; null otherwise. */
  const chosen = async (detail: (count: number) => string, testId: string): Promise<number[] | null> => {
    const ids = [...selection.selected];
    if (ids.length === 0) {
      notifyError(t('alarmColumns:command.nothingSelected'));
      return null;
    }
    return (await confirmCommand(detail(ids.length), { testId })) ? ids : null;
  };
  const sent = (dispatchId: string) => {
    notifySuccess(t('messages:instructionSent'));
    list.follow(dispatchId);
  };
  const rebootSelected = async () => {
    const ids = await chosen((count) => t('alarmColumns:command.confirmReboot', { count }), 'alarm-reboot-confirm');
    if (ids) sent((await commands.reboot.mutateAsync({ ids })).dispatchId);
  };
  const setVolume = async (volume: number) => {
    const ids = await chosen((count) => t('alarmColumns:command.confirmVolume', { count, value: volume }), 'alarm-volume-confirm');
    if (ids) sent((await commands.volume.mutateAsync({ ids, volume })).dispatchId);
  };

  return (
    <PagePanel
      title={t('common:route.alarmColumnManage')}
      actions={
        <Group gap="xs">
          {switcher}
          {list.canAdd && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => list.edit(null)} data-testid="alarm-add">
              {t('alarmColumns:list.add')}
            </Button>
          )}
          {mayReboot && (
            <Button
              variant="light"
              color="orange"
              leftSection={<IconRefresh size={16} />}
              onClick={() => void rebootSelected().catch(() => undefined)}
              loading={commands.reboot.isPending}
              data-testid="alarm-reboot"
            >
              {t('alarmColumns:command.reboot')}
            </Button>
          )}
          <Suspense fallback={null}>
            <LazyImportButton kind="column" onImported={() => void queryClient.invalidateQueries({ queryKey: alarmColumnKeys.all })} />
            <LazyExportButton kind="column" search={search} />
          </Suspense>
        </Group>
      }
    >
      <DeviceListBody
        list={list}
        total={columns.data?.total ?? 0}
        side={
          <>
            <DispatchPanel family={DeviceFamily.Alarm} dispatchId={search.dispatch ?? null} describe={describeAlarmDispatch} />
            {maySetVolume && (
              <Suspense fallback={null}>
                <VolumeCard send={setVolume} loading={commands.volume.isPending} />
              </Suspense>
            )}
          </>
        }
      >
        <DeviceListFilters
          testId="alarm"
          nameKey="name"
          nameLabel={t('alarmColumns:fields.name')}
          regionLabel={t('alarmColumns:fields.region')}
          draft={draft}
          setDraft={setDraft}
          apply={list.apply}
        >
          <NetworkFilter ns="alarmColumns" {...field('networkStatus')} testId="alarm-network-filter" />
        </DeviceListFilters>
        <DeviceTable
          testId="alarm"
          rows={rows}
          loading={columns.isLoading}
          selection={selection}
          columns={list.columns}
          texts="alarmColumns:columnList"
          rowLabel={(column) => column.name}
          rowTestId={(column) => `alarm-row-${column.code}`}
          withActions={list.canEdit || list.canDelete}
          actions={(column) => (
            <DeviceRowActions
              list={list}
              row={column}
              family={DeviceFamily.Alarm}
              name={column.name}
              editLabel={t('alarmColumns:list.edit')}
              testId="alarm"
            />
          )}
        />
      </DeviceListBody>
      <Suspense fallback={null}>{list.formOpen && <AlarmColumnFormModal column={list.editing} onClose={list.closeForm} />}</Suspense>
    </PagePanel>
  );
}
