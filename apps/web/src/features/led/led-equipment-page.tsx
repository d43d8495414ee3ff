import { Suspense, lazy } from 'react';
import { Badge, Button, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { DeviceFamily, ScreenState, type LedRow } from '@sc/contracts';
import { DeviceListBody, DeviceListFilters, DeviceRowActions, DeviceTable, useDeviceList } from '@/components/device-list';
import { NetworkBadge, NetworkFilter } from '@/components/network-status';
import { PagePanel } from '@/components/page-panel';
import type { Column } from '@/components/table-columns';
import { NameCode } from '@/components/table-parts';
import { draftFields } from '@/components/use-paged-filters';
import { DispatchPanel } from '@/features/dispatch/dispatch-panel';
import { LazyExportButton } from '@/features/imports/lazy-buttons';
import { parseTime } from '@/utils/format';
import { paging } from '@/navigation/search-params';
import { useDeleteLed, useLedPage, useLiveLed } from './api';
import { describeLedDispatch } from './led-dispatch';

// The form loads when first opened, and the command card (sliders, number inputs) beside the page.
const LedFormModal = lazy(() => import('./led-form-modal').then((m) => ({ default: m.LedFormModal })));
const LedCommandCard = lazy(() => import('./led-command-card').then((m) => ({ default: m.LedCommandCard })));

const route = getRouteApi('/_auth/_shell/ledManage/ledEquipmentManage');

function ScreenBadge({ screen }: { screen: ScreenState }) {
  const { t } = useTranslation();
  return (
    <Badge color={screen === ScreenState.Black ? 'dark' : 'yellow'} variant="light" data-testid="led-screen" data-screen={screen}>
      {t(`led:screen.${screen}`)}
    </Badge>
  );
}

/** The screens' columns: name and serial number, network, brightness, screen and heartbeat by default (they fit beside the command card in every language); the spec's other fields in the chooser. */
function useLedColumns(): Column<LedRow>[] {
  const { t } = useTranslation();
  return [
    { key: 'name', label: t('led:fields.name'), always: true, cell: (row) => <NameCode name={row.name} code={row.sn} fw={500} /> },
    {
      key: 'network',
      label: t('led:fields.networkStatus'),
      cell: (row) => <NetworkBadge ns="led" networkStatus={row.networkStatus} testId="led-network" />,
    },
    {
      key: 'brightness',
      label: t('led:fields.brightness'),
      align: 'right',
      td: { 'data-testid': 'led-brightness' },
      cell: (row) => `${row.brightness} %`,
    },
    {
      key: 'volume',
      label: t('led:fields.volume'),
      hidden: true,
      align: 'right',
      td: { 'data-testid': 'led-volume' },
      cell: (row) => `${row.volume} %`,
    },
    { key: 'screen', label: t('led:fields.screen'), cell: (row) => <ScreenBadge screen={row.screen} /> },
    {
      key: 'heartbeatTime',
      label: t('led:fields.heartbeatTime'),
      td: { 'data-testid': 'led-heartbeat' },
      cell: (row) => (row.reportedAt ? parseTime(row.reportedAt) : '—'),
    },
    { key: 'resolution', label: t('led:fields.resolution'), hidden: true, cell: (row) => `${row.width} × ${row.height}` },
    { key: 'width', label: t('led:fields.width'), hidden: true, align: 'right', cell: (row) => row.width },
    { key: 'height', label: t('led:fields.height'), hidden: true, align: 'right', cell: (row) => row.height },
    { key: 'IPAddress', label: t('led:fields.IPAddress'), hidden: true, td: { ff: 'monospace' }, cell: (row) => row.IPAddress },
    { key: 'timeZone', label: t('led:fields.timeZone'), hidden: true, cell: (row) => row.timeZone },
    { key: 'region', label: t('led:fields.region'), hidden: true, cell: (row) => row.regionName ?? '—' },
    {
      key: 'pole',
      label: t('led:fields.pole'),
      hidden: true,
      cell: (row) => (row.poleCode ? <NameCode name={row.poleName ?? ''} code={row.poleCode} /> : t('led:list.noPole')),
    },
    {
      key: 'daylight',
      label: t('led:fields.daylight'),
      hidden: true,
      cell: (row) =>
        row.daylight ? t('led:list.daylightOn', { day: row.daylight.dayBrightness, night: row.daylight.nightBrightness }) : t('led:list.daylightOff'),
    },
    { key: 'version', label: t('led:fields.version'), hidden: true, cell: (row) => <Text size="sm">{row.softwareVersion || '—'}</Text> },
  ];
}

/** /ledManage/ledEquipmentManage: the LED screens, online and what they show live; their settings over a selection or a region. */
export function LedEquipmentPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { pageNum, pageSize } = paging(search);
  const screens = useLedPage({ name: search.name, regionId: search.regionId, networkStatus: search.networkStatus, pageNum, pageSize });
  const remove = useDeleteLed();
  useLiveLed();

  const rows = screens.data?.list ?? [];
  const list = useDeviceList({
    search,
    go: (next, replace) => void navigate({ search: next, replace, resetScroll: !replace }),
    rows,
    table: 'led-screens',
    columns: useLedColumns(),
    remove: (id) => remove.mutateAsync(id),
    deleteText: (screen) => t('led:list.deleteDetail', { name: screen.name }),
  });
  const { selection, draft, setDraft } = list;
  const field = draftFields(draft, setDraft);

  return (
    <PagePanel
      title={t('common:route.ledEquipmentManage')}
      actions={
        <>
          {list.canAdd && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => list.edit(null)} data-testid="led-add">
              {t('led:list.add')}
            </Button>
          )}
          <Suspense fallback={null}>
            <LazyExportButton kind="led" search={search} />
          </Suspense>
        </>
      }
    >
      <DeviceListBody
        list={list}
        total={screens.data?.total ?? 0}
        side={
          <>
            <Suspense fallback={null}>
              <LedCommandCard selected={[...selection.selected]} onDispatched={list.follow} />
            </Suspense>
            <DispatchPanel family={DeviceFamily.Led} dispatchId={search.dispatch ?? null} describe={describeLedDispatch} />
          </>
        }
      >
        <DeviceListFilters
          testId="led"
          nameKey="name"
          nameLabel={t('led:fields.name')}
          regionLabel={t('led:fields.region')}
          draft={draft}
          setDraft={setDraft}
          apply={list.apply}
        >
          <NetworkFilter ns="led" {...field('networkStatus')} testId="led-network-filter" />
        </DeviceListFilters>
        <DeviceTable
          testId="led"
          rows={rows}
          loading={screens.isLoading}
          selection={selection}
          columns={list.columns}
          texts="led:list"
          rowLabel={(screen) => screen.name}
          rowTestId={(screen) => `led-row-${screen.sn}`}
          withActions={list.canEdit || list.canDelete}
          actions={(screen) => (
            <DeviceRowActions list={list} row={screen} family={DeviceFamily.Led} name={screen.name} editLabel={t('led:list.edit')} testId="led" />
          )}
        />
      </DeviceListBody>
      <Suspense fallback={null}>{list.formOpen && <LedFormModal opened screen={list.editing} onClose={list.closeForm} />}</Suspense>
    </PagePanel>
  );
}
