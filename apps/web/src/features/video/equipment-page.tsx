import { Suspense, lazy, useState } from 'react';
import { ActionIcon, Badge, Button, Grid, Stack, Text, Tooltip } from '@mantine/core';
import { IconPlayerPlay, IconPlus } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { VIDEO_VENDORS, type CameraRow } from '@sc/contracts';
import { DeviceListFilters, DeviceTable, useDeviceList } from '@/components/device-list';
import { OptionFilter } from '@/components/filter-fields';
import { NetworkBadge, NetworkFilter } from '@/components/network-status';
import { PagePanel } from '@/components/page-panel';
import { EditDeleteCell } from '@/components/row-actions';
import { OneLine, type Column } from '@/components/table-columns';
import { TableFooter } from '@/components/table-footer';
import { NameCode } from '@/components/table-parts';
import { draftFields } from '@/components/use-paged-filters';
import { LazyExportButton } from '@/features/imports/lazy-buttons';
import { paging } from '@/navigation/search-params';
import { parseTime } from '@/utils/format';
import { useCameraPage, useDeleteCamera, useLiveCameras } from './api';
import { accessKey, addressOf, categoryLabel, subTypeLabel, vendorLabel } from './categories';
import { CategoryTree } from './category-tree';

// The form and the live view load when first opened (the live view's player brings hls.js only as it starts).
const CameraFormModal = lazy(() => import('./camera-form-modal').then((m) => ({ default: m.CameraFormModal })));
const LiveModal = lazy(() => import('./live-modal').then((m) => ({ default: m.LiveModal })));

const route = getRouteApi('/_auth/_shell/realVideo/equipment');

/** A camera's online state, and beside it what it said of the stored login when that stops the live view. */
function NetworkCell({ row }: { row: CameraRow }) {
  const { t } = useTranslation();
  const access = accessKey(row.access);
  return (
    <Stack gap={4} align="flex-start">
      <NetworkBadge ns="video" networkStatus={row.networkStatus} testId="video-network" />
      {access && (
        <Badge color={access === 'unauthorized' ? 'red' : 'orange'} variant="light" tt="none" data-testid="video-access" data-access={row.access}>
          {t(`video:access.${access}`)}
        </Badge>
      )}
    </Stack>
  );
}

/**
 * The list's columns: name and code, category and sub-type, address, network and what the camera said of the login;
 * the vendor, channel, region, pole, last answer, login and position in the chooser, so the table fits beside the
 * category tree on a 1440-pixel screen in every language.
 */
function useCameraColumns(): Column<CameraRow>[] {
  const { t } = useTranslation();
  const f = (field: string) => t(`video:fields.${field}`);
  return [
    { key: 'name', label: f('name'), always: true, cell: (row) => <NameCode name={row.name} code={row.code} fw={500} /> },
    { key: 'vendor', label: f('vendor'), hidden: true, td: { 'data-testid': 'video-vendor' }, cell: (row) => vendorLabel(t, row.vendor) },
    {
      key: 'category',
      label: f('category'),
      td: { 'data-testid': 'video-category' },
      cell: (row) => {
        const type = subTypeLabel(t, row.category, row.subType);
        return (
          <>
            <OneLine maw="10rem">{categoryLabel(t, row.category)}</OneLine>
            {type && (
              <OneLine size="xs" c="dimmed" maw="10rem">
                {type}
              </OneLine>
            )}
          </>
        );
      },
    },
    {
      key: 'address',
      label: f('address'),
      td: { ff: 'monospace', 'data-testid': 'video-address' },
      cell: (row) => <OneLine maw="10rem">{addressOf(row) || '—'}</OneLine>,
    },
    { key: 'channel', label: f('channel'), hidden: true, align: 'right', td: { 'data-testid': 'video-channel' }, cell: (row) => row.channel },
    { key: 'region', label: f('region'), hidden: true, cell: (row) => row.regionName ?? '—' },
    {
      key: 'pole',
      label: f('pole'),
      hidden: true,
      cell: (row) => (row.poleCode ? <NameCode name={row.poleName ?? ''} code={row.poleCode} /> : t('video:list.noPole')),
    },
    { key: 'network', label: f('networkStatus'), cell: (row) => <NetworkCell row={row} /> },
    {
      key: 'reportedAt',
      label: f('reportedAt'),
      hidden: true,
      td: { 'data-testid': 'video-reported-at' },
      cell: (row) =>
        row.reportedAt ? (
          parseTime(row.reportedAt)
        ) : (
          <Text size="sm" c="dimmed">
            {t('video:list.never')}
          </Text>
        ),
    },
    { key: 'username', label: f('username'), hidden: true, cell: (row) => row.username || '—' },
    {
      key: 'position',
      label: `${f('latitude')} / ${f('longitude')}`,
      hidden: true,
      cell: (row) => (row.latitude === null ? '—' : `${row.latitude}, ${row.longitude}`),
    },
  ];
}

/** Live view of a row: disabled, with the reason, for equipment whose stream the console cannot find. */
function LiveAction({ row, onOpen }: { row: CameraRow; onOpen: () => void }) {
  const { t } = useTranslation();
  const label = row.hasStream ? t('video:list.live') : t('video:list.noStream');
  return (
    <Tooltip label={label} multiline maw={280}>
      {/* A disabled button has no pointer events: the tooltip hangs on its wrapper. */}
      <span>
        <ActionIcon variant="subtle" onClick={onOpen} disabled={!row.hasStream} aria-label={label} data-testid="video-live">
          <IconPlayerPlay size={18} />
        </ActionIcon>
      </span>
    </Tooltip>
  );
}

/**
 * /realVideo/equipment: the video equipment by the spec's categories (the tree on the left), filtered by name, region,
 * vendor and online state; online state and the login's answer live. Add, edit, delete, export, and each one's live view.
 */
export function VideoEquipmentPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { pageNum, pageSize } = paging(search);
  const cameras = useCameraPage({
    name: search.name,
    regionId: search.regionId,
    vendor: search.vendor,
    networkStatus: search.networkStatus,
    category: search.category,
    subType: search.subType,
    pageNum,
    pageSize,
  });
  const remove = useDeleteCamera();
  const [watching, setWatching] = useState<number | null>(null);
  useLiveCameras();

  const rows = cameras.data?.list ?? [];
  const list = useDeviceList<CameraRow, typeof search>({
    search,
    go: (next, replace) => void navigate({ search: next, replace, resetScroll: !replace }),
    rows,
    table: 'video-equipment',
    columns: useCameraColumns(),
    remove: (id) => remove.mutateAsync(id),
    deleteText: (camera) => t('video:list.delete', { name: camera.name }),
  });
  const { draft, setDraft } = list;
  const field = draftFields(draft, setDraft);
  // The live row, so the dialog's badge follows the camera.
  const watched = watching === null ? undefined : rows.find((row) => row.id === watching);

  return (
    <PagePanel
      title={t('common:route.equipment')}
      actions={
        <>
          {list.canAdd && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => list.edit(null)} data-testid="video-add">
              {t('video:list.add')}
            </Button>
          )}
          <Suspense fallback={null}>
            <LazyExportButton kind="camera" search={search} />
          </Suspense>
        </>
      }
    >
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 4, lg: 3, xl: 2 }}>
          <CategoryTree
            value={{ category: search.category, subType: search.subType }}
            onChoose={(node) => list.apply({ ...search, category: node.category, subType: node.subType })}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8, lg: 9, xl: 10 }}>
          <Stack gap="sm">
            <DeviceListFilters
              testId="video"
              nameKey="name"
              nameLabel={t('video:list.nameOrCode')}
              regionLabel={t('video:fields.region')}
              draft={draft}
              setDraft={setDraft}
              // The tree's node stays chosen whatever the filters.
              apply={(next) => list.apply({ ...next, category: search.category, subType: search.subType })}
            >
              <OptionFilter
                label={t('video:fields.vendor')}
                placeholder={t('video:list.allVendors')}
                options={VIDEO_VENDORS.map((vendor) => ({ value: vendor, label: vendorLabel(t, vendor) }))}
                {...field('vendor')}
                width={160}
                testId="video-vendor-filter"
              />
              <NetworkFilter ns="video" {...field('networkStatus')} testId="video-network-filter" />
            </DeviceListFilters>
            <DeviceTable
              testId="video"
              rows={rows}
              loading={cameras.isLoading}
              selection={list.selection}
              columns={list.columns}
              texts="video:columnList"
              rowLabel={(camera) => camera.name}
              rowTestId={(camera) => `video-row-${camera.code}`}
              withActions
              actions={(camera) => (
                <EditDeleteCell
                  canEdit={list.canEdit}
                  canDelete={list.canDelete}
                  onEdit={() => list.edit(camera)}
                  onDelete={() => void list.deleteRow(camera)}
                  editLabel={t('video:list.edit')}
                  editTestId="video-edit"
                  deleteTestId="video-delete"
                >
                  <LiveAction row={camera} onOpen={() => setWatching(camera.id)} />
                </EditDeleteCell>
              )}
            />
            <TableFooter total={cameras.data?.total ?? 0} pageNum={pageNum} pageSize={pageSize} onChange={list.goPage} />
          </Stack>
        </Grid.Col>
      </Grid>
      <Suspense fallback={null}>
        {list.formOpen && <CameraFormModal camera={list.editing} onClose={list.closeForm} />}
        {watched && <LiveModal camera={watched} onClose={() => setWatching(null)} />}
      </Suspense>
    </PagePanel>
  );
}
