import { Suspense, lazy } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Group, Text } from '@mantine/core';
import { IconPlus, IconRefresh } from '@tabler/icons-react';
import { Link, getRouteApi } from '@tanstack/react-router';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, DeviceFamily, type AcRow, type ApRow } from '@sc/contracts';
import { useButton } from '@/auth/session-store';
import { confirmCommand } from '@/components/confirm';
import { DeviceListBody, DeviceListFilters, DeviceRowActions, DeviceTable, useDeviceList } from '@/components/device-list';
import { NetworkBadge, NetworkFilter } from '@/components/network-status';
import { notifyError, notifySuccess } from '@/components/notify';
import { PagePanel } from '@/components/page-panel';
import { Select } from '@/components/select';
import type { Column } from '@/components/table-columns';
import { NameCode } from '@/components/table-parts';
import { draftFields } from '@/components/use-paged-filters';
import { DispatchPanel } from '@/features/dispatch/dispatch-panel';
import { LazyExportButton, LazyImportButton } from '@/features/imports/lazy-buttons';
import { paging } from '@/navigation/search-params';
import { parseTime } from '@/utils/format';
import { useAcOptions, useDeleteWifiDevice, useLiveWifi, useWifiPage, useWifiReboot, type WifiKind } from './api';
import type { WifiDeviceSearch } from './search';

const WifiFormModal = lazy(() => import('./wifi-form-modal').then((m) => ({ default: m.WifiFormModal })));
// The chart library loads beside the page, once a device is chosen.
const LoadChart = lazy(() => import('./wifi-charts').then((m) => ({ default: m.LoadChart })));

type Row = AcRow | ApRow;
const Kind = { ac: 'Ac', ap: 'Ap' } as const;
const FAMILY = { ac: DeviceFamily.AccessController, ap: DeviceFamily.AccessPoint } as const;

/** Names a Wi-Fi dispatch for the progress panel (a reboot is their only command). */
const describeWifiDispatch = (t: TFunction) => t('wifi:command.reboot');

const ratio = (value: number | null) => (value === null ? '—' : `${value.toFixed(1)} %`);

/** A list's columns: name and serial number, network, CPU and memory, and what hangs off it; disk and the spec's other fields in the chooser. */
function useWifiColumns(kind: WifiKind): Column<Row>[] {
  const { t } = useTranslation();
  const below: Column<Row>[] =
    kind === 'ac'
      ? [
          {
            key: 'apCount',
            label: t('wifi:fields.apCount'),
            cell: (row) => (
              <Link to="/wifiManage/apManage" search={{ acId: row.id }}>
                <Text span size="sm" c="blue">
                  {t('wifi:list.apsOnline', { online: (row as AcRow).apOnline, count: (row as AcRow).apCount })}
                </Text>
              </Link>
            ),
          },
        ]
      : [
          // The controller filter above the list says which; the column is in the chooser.
          {
            key: 'ac',
            label: t('wifi:fields.ac'),
            hidden: true,
            cell: (row) => <NameCode name={(row as ApRow).acName} code={(row as ApRow).acSN} />,
          },
          {
            key: 'clientCount',
            label: t('wifi:fields.clientCount'),
            align: 'right',
            td: { 'data-testid': 'wifi-clients' },
            cell: (row) => (
              <Link to="/wifiManage/terminalManage" search={{ apId: row.id }}>
                <Text span size="sm" c="blue">
                  {(row as ApRow).clientCount}
                </Text>
              </Link>
            ),
          },
        ];
  return [
    { key: 'devName', label: t('wifi:fields.devName'), always: true, cell: (row) => <NameCode name={row.devName} code={row.devSN} fw={500} /> },
    {
      key: 'network',
      label: t('wifi:fields.networkStatus'),
      cell: (row) => <NetworkBadge ns="wifi" networkStatus={row.networkStatus} testId="wifi-network" />,
    },
    { key: 'cpuRatio', label: t('wifi:fields.cpuRatio'), align: 'right', td: { 'data-testid': 'wifi-cpu' }, cell: (row) => ratio(row.cpuRatio) },
    {
      key: 'memoryRatio',
      label: t('wifi:fields.memoryRatio'),
      align: 'right',
      td: { 'data-testid': 'wifi-memory' },
      cell: (row) => ratio(row.memoryRatio),
    },
    // Disk fills slowly: in the chooser and the device's load chart, not shown by default (the list fits its box).
    {
      key: 'diskRatio',
      label: t('wifi:fields.diskRatio'),
      align: 'right',
      hidden: true,
      td: { 'data-testid': 'wifi-disk' },
      cell: (row) => ratio(row.diskRatio),
    },
    ...below,
    { key: 'heartbeatTime', label: t('wifi:fields.heartbeatTime'), hidden: true, cell: (row) => (row.reportedAt ? parseTime(row.reportedAt) : '—') },
    { key: 'devMac', label: t('wifi:fields.devMac'), hidden: true, td: { ff: 'monospace' }, cell: (row) => row.devMac },
    { key: 'devModel', label: t('wifi:fields.devModel'), hidden: true, cell: (row) => row.devModel || '—' },
    { key: 'devType', label: t('wifi:fields.devType'), hidden: true, cell: (row) => row.devType || '—' },
    { key: 'region', label: t('wifi:fields.region'), hidden: true, cell: (row) => row.regionName ?? '—' },
    {
      key: 'pole',
      label: t('wifi:fields.pole'),
      hidden: true,
      cell: (row) => (row.poleCode ? <NameCode name={row.poleName ?? ''} code={row.poleCode} /> : t('wifi:list.noPole')),
    },
    { key: 'version', label: t('wifi:fields.version'), hidden: true, cell: (row) => <Text size="sm">{row.softwareVersion || '—'}</Text> },
  ];
}

/** The controller filter of the access point list. */
function AcFilter({ value, onChange }: { value: number | undefined; onChange: (id: number | undefined) => void }) {
  const { t } = useTranslation();
  const acs = useAcOptions();
  return (
    <Select
      label={t('wifi:fields.ac')}
      placeholder={t('wifi:list.allAcs')}
      clearable
      searchable
      w={220}
      data={acs.data ?? []}
      value={value === undefined ? null : String(value)}
      onChange={(id) => onChange(id ? Number(id) : undefined)}
      data-testid="wifi-ac-filter"
    />
  );
}

/**
 * acManage and apManage: the access controllers or the access points, online and their CPU, memory and disk ratios
 * live; add, edit, delete, mount on a pole, import, export, and reboot the selected ones through the command ledger.
 */
function WifiDevicePage({
  kind,
  search,
  navigate,
}: {
  kind: WifiKind;
  search: WifiDeviceSearch;
  navigate: (search: WifiDeviceSearch, replace?: boolean) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { pageNum, pageSize } = paging(search);
  const devices = useWifiPage(kind, {
    name: search.name,
    regionId: search.regionId,
    networkStatus: search.networkStatus,
    ...(kind === 'ap' ? { acId: search.acId } : {}),
    pageNum,
    pageSize,
  });
  const remove = useDeleteWifiDevice(kind);
  const reboot = useWifiReboot(kind);
  const mayReboot = useButton(ButtonPermission.OpenAndClose);
  useLiveWifi(kind);

  const rows = devices.data?.list ?? [];
  const list = useDeviceList<Row, WifiDeviceSearch>({
    search,
    go: (next, replace) => void navigate(next, replace),
    rows,
    table: `wifi-${kind}`,
    columns: useWifiColumns(kind),
    remove: (id) => remove.mutateAsync(id),
    deleteText: (device) => t(`wifi:list.delete${Kind[kind]}`, { name: device.devName }),
  });
  const { selection, draft, setDraft } = list;
  const field = draftFields(draft, setDraft);

  // The load chart follows the one device chosen (its row on this page).
  const charted = selection.selected.size === 1 ? rows.find((row) => selection.selected.has(row.id)) : undefined;

  const rebootSelected = async () => {
    const ids = [...selection.selected];
    if (ids.length === 0) return notifyError(t('wifi:command.nothingSelected'));
    const detail = t('wifi:command.confirm', { count: ids.length, kind: t(`wifi:kind.${kind}`) });
    if (!(await confirmCommand(detail, { testId: 'wifi-reboot-confirm' }))) return;
    const { dispatchId } = await reboot.mutateAsync({ ids });
    notifySuccess(t('messages:instructionSent'));
    list.follow(dispatchId);
  };

  return (
    <PagePanel
      title={t(`common:route.${kind}Manage`)}
      actions={
        <Group gap="xs">
          {list.canAdd && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => list.edit(null)} data-testid="wifi-add">
              {t(`wifi:list.add${Kind[kind]}`)}
            </Button>
          )}
          {mayReboot && (
            <Button
              variant="light"
              color="orange"
              leftSection={<IconRefresh size={16} />}
              onClick={() => void rebootSelected().catch(() => undefined)}
              loading={reboot.isPending}
              data-testid="wifi-reboot"
            >
              {t('wifi:command.reboot')}
            </Button>
          )}
          <Suspense fallback={null}>
            <LazyImportButton kind={kind} onImported={() => void queryClient.invalidateQueries({ queryKey: ['wifi'] })} />
            <LazyExportButton kind={kind} search={search} />
          </Suspense>
        </Group>
      }
    >
      <DeviceListBody
        list={list}
        total={devices.data?.total ?? 0}
        side={
          <>
            <DispatchPanel family={FAMILY[kind]} dispatchId={search.dispatch ?? null} describe={describeWifiDispatch} />
            {charted ? (
              <Suspense fallback={null}>
                <LoadChart kind={kind} id={charted.id} name={charted.devName} />
              </Suspense>
            ) : (
              <Text size="sm" c="dimmed">
                {t('wifi:charts.selectOne')}
              </Text>
            )}
          </>
        }
      >
        <DeviceListFilters
          testId={`wifi-${kind}`}
          nameKey="name"
          nameLabel={t('wifi:fields.devName')}
          regionLabel={t('wifi:fields.region')}
          draft={draft}
          setDraft={setDraft}
          apply={list.apply}
        >
          <NetworkFilter ns="wifi" {...field('networkStatus')} testId="wifi-network-filter" />
          {kind === 'ap' && <AcFilter value={draft.acId} onChange={(acId) => setDraft({ ...draft, acId })} />}
        </DeviceListFilters>
        <DeviceTable
          testId={`wifi-${kind}`}
          rows={rows}
          loading={devices.isLoading}
          selection={selection}
          columns={list.columns}
          texts={`wifi:${kind}List`}
          rowLabel={(device) => device.devName}
          rowTestId={(device) => `wifi-row-${device.devSN}`}
          withActions={list.canEdit || list.canDelete}
          actions={(device) => (
            <DeviceRowActions
              list={list}
              row={device}
              family={FAMILY[kind]}
              name={device.devName}
              editLabel={t(`wifi:list.edit${Kind[kind]}`)}
              testId="wifi"
            />
          )}
        />
      </DeviceListBody>
      <Suspense fallback={null}>{list.formOpen && <WifiFormModal kind={kind} device={list.editing} onClose={list.closeForm} />}</Suspense>
    </PagePanel>
  );
}

const acRoute = getRouteApi('/_auth/_shell/wifiManage/acManage');
const apRoute = getRouteApi('/_auth/_shell/wifiManage/apManage');

/** /wifiManage/acManage. */
export function AcManagePage() {
  const navigate = acRoute.useNavigate();
  return (
    <WifiDevicePage
      kind="ac"
      search={acRoute.useSearch()}
      navigate={(search, replace) => void navigate({ search, replace, resetScroll: !replace })}
    />
  );
}

/** /wifiManage/apManage. */
export function ApManagePage() {
  const navigate = apRoute.useNavigate();
  return (
    <WifiDevicePage
      kind="ap"
      search={apRoute.useSearch()}
      navigate={(search, replace) => void navigate({ search, replace, resetScroll: !replace })}
    />
  );
}
