import { Suspense, lazy, useState } from 'react';
import { Badge, Button, Grid, Group, Stack, Text } from '@mantine/core';
import { IconArrowsExchange, IconCamera, IconLink, IconPlus } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, DeviceFamily, OnlineState, type SignageDeviceRow } from '@sc/contracts';
import { useButton } from '@/auth/session-store';
import { DeviceListFilters, DeviceTable, useDeviceList } from '@/components/device-list';
import { OptionFilter } from '@/components/filter-fields';
import { PagePanel } from '@/components/page-panel';
import { EditDeleteCell, IconAction } from '@/components/row-actions';
import type { Column } from '@/components/table-columns';
import { TableFooter } from '@/components/table-footer';
import { NameCode } from '@/components/table-parts';
import { RenewMqttAction } from '@/components/renew-mqtt-action';
import { draftFields } from '@/components/use-paged-filters';
import { paging } from '@/navigation/search-params';
import { DispatchPanel } from '@/features/dispatch/dispatch-panel';
import { NetworkBadge } from '@/features/lighting/lamp-badges';
import { useDeleteSignageDevice, useLiveSignage, useSignagePage } from './api';
import { describeSignageDispatch } from './dispatch';
import { SignageGroupPanel } from './group-panel';

// The dialogs and the command card (slider, number inputs) load beside the page, keeping its first load small.
const SignageDeviceFormModal = lazy(() => import('./device-form-modal').then((m) => ({ default: m.SignageDeviceFormModal })));
const SignageBindDialog = lazy(() => import('./bind-dialog').then((m) => ({ default: m.SignageBindDialog })));
const SignageCommandCard = lazy(() => import('./command-card').then((m) => ({ default: m.SignageCommandCard })));
const SignageScreenshotModal = lazy(() => import('./screenshot-modal').then((m) => ({ default: m.SignageScreenshotModal })));

const route = getRouteApi('/_auth/_shell/floor-screen/device');

/** The players' columns: name and code, status, group, current ad, volume by default; the spec's other fields in the chooser. */
function useSignageColumns(): Column<SignageDeviceRow>[] {
  const { t } = useTranslation();
  const f = (field: string) => t(`signage:fields.${field}`);
  return [
    { key: 'name', label: f('name'), always: true, cell: (d) => <NameCode name={d.name} code={d.code} fw={500} /> },
    { key: 'status', label: f('status'), cell: (d) => <NetworkBadge networkStatus={d.networkStatus} /> },
    { key: 'group', label: f('group'), td: { 'data-testid': 'signage-group-cell' }, cell: (d) => d.groupName ?? t('signage:groups.none') },
    { key: 'currentAd', label: f('currentAd'), wrap: true, td: { 'data-testid': 'signage-current-ad' }, cell: (d) => d.currentAd?.name ?? '—' },
    {
      key: 'volume',
      label: f('volume'),
      align: 'right',
      td: { 'data-testid': 'signage-volume' },
      cell: (d) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Text size="sm">{`${d.volume} %`}</Text>
          {d.muted && (
            <Badge size="xs" color="gray" data-testid="signage-muted">
              {t('signage:list.muted')}
            </Badge>
          )}
        </Group>
      ),
    },
    { key: 'cMark', label: f('cMark'), hidden: true, cell: (d) => d.cMark || '—' },
    { key: 'address', label: f('address'), hidden: true, wrap: true, cell: (d) => d.address || '—' },
    {
      key: 'position',
      label: f('position'),
      hidden: true,
      cell: (d) => (d.latitude === null || d.longitude === null ? '—' : `${d.latitude}, ${d.longitude}`),
    },
    { key: 'serialNumber', label: f('serialNumber'), hidden: true, cell: (d) => d.serialNumber || '—' },
    {
      key: 'orientation',
      label: f('orientation'),
      hidden: true,
      cell: (d) => t(`signage:orientation.${d.orientation === '9:16' ? 'portrait' : 'landscape'}`),
    },
    { key: 'resolution', label: f('resolution'), hidden: true, cell: (d) => d.resolution || '—' },
    { key: 'screenState', label: f('screenState'), hidden: true, cell: (d) => t(`signage:screenState.${d.screenState}`) },
    { key: 'softwareVersion', label: f('softwareVersion'), hidden: true, cell: (d) => d.softwareVersion || '—' },
    { key: 'region', label: f('region'), hidden: true, cell: (d) => d.regionName ?? '—' },
  ];
}

/** /floor-screen/device (Device Management): floor screens and their groups, live; binding, moving and commands. */
export function SignageDevicePage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { pageNum, pageSize } = paging(search);
  const devices = useSignagePage({ name: search.name, groupId: search.groupId, networkStatus: search.networkStatus, pageNum, pageSize });
  const remove = useDeleteSignageDevice();
  const canAdd = useButton(ButtonPermission.Add);
  const canEdit = useButton(ButtonPermission.Edit);
  const canDelete = useButton(ButtonPermission.Delete);
  const canRefresh = useButton(ButtonPermission.Refresh);
  const [viewing, setViewing] = useState<number | null>(null);
  const [binding, setBinding] = useState<'bind' | 'move' | null>(null);
  useLiveSignage();

  const rows = devices.data?.list ?? [];
  const list = useDeviceList({
    search,
    go: (next) => void navigate({ search: next }),
    rows,
    table: 'signage',
    columns: useSignageColumns(),
    remove: (id) => remove.mutateAsync(id),
    deleteText: (d) => t('signage:list.deleteDetail', { name: d.name }),
  });
  const { selection, columns, draft, setDraft, apply, edit } = list;
  const field = draftFields(draft, setDraft);
  const selected = [...selection.selected];
  // The live row, so the viewer sees its lastScreenshotAt move.
  const viewed = viewing === null ? undefined : rows.find((d) => d.id === viewing);

  return (
    <PagePanel
      title={t('common:route.floorScreenDevice')}
      actions={
        <>
          {canEdit && (
            <>
              <Button
                variant="default"
                leftSection={<IconLink size={16} />}
                disabled={selected.length === 0}
                onClick={() => setBinding('bind')}
                data-testid="signage-bind"
              >
                {t('signage:bind.bind')}
              </Button>
              <Button
                variant="default"
                leftSection={<IconArrowsExchange size={16} />}
                disabled={selected.length === 0}
                onClick={() => setBinding('move')}
                data-testid="signage-move"
              >
                {t('signage:bind.move')}
              </Button>
            </>
          )}
          {canAdd && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => edit(null)} data-testid="signage-add">
              {t('signage:list.add')}
            </Button>
          )}
        </>
      }
    >
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 3, xl: 2 }}>
          <SignageGroupPanel groupId={search.groupId} onChoose={(groupId) => apply({ ...search, groupId })} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9, xl: 10 }}>
          <Stack gap="sm">
            <DeviceListFilters
              testId="signage"
              nameKey="name"
              nameLabel={t('signage:list.nameOrCode')}
              draft={draft}
              setDraft={setDraft}
              apply={(next) => apply({ ...next, groupId: search.groupId })}
            >
              <OptionFilter
                label={t('signage:fields.status')}
                placeholder={t('signage:list.allStatuses')}
                options={[OnlineState.Online, OnlineState.Offline].map((s) => ({ value: s, label: t(`lighting:network.${s}`) }))}
                {...field('networkStatus')}
                width={160}
                testId="signage-status-filter"
              />
            </DeviceListFilters>
            <DeviceTable
              testId="signage"
              rows={rows}
              loading={devices.isLoading}
              selection={selection}
              columns={columns}
              texts="signage:list"
              rowLabel={(d) => d.name}
              rowTestId={(d) => `signage-row-${d.code}`}
              withActions
              actions={(d) => (
                <EditDeleteCell
                  canEdit={canEdit}
                  canDelete={canDelete}
                  onEdit={() => edit(d)}
                  onDelete={() => void list.deleteRow(d)}
                  editLabel={t('signage:list.edit')}
                >
                  {canRefresh && (
                    <IconAction label={t('signage:screenshot.open')} onClick={() => setViewing(d.id)} testId="signage-screenshot">
                      <IconCamera size={18} />
                    </IconAction>
                  )}
                  <RenewMqttAction family={DeviceFamily.Signage} id={d.id} name={d.name} testId="signage-renew-mqtt" />
                </EditDeleteCell>
              )}
            />
            <TableFooter
              total={devices.data?.total ?? 0}
              pageNum={pageNum}
              pageSize={pageSize}
              onChange={(page) => void navigate({ search: { ...search, ...page } })}
            />
          </Stack>
        </Grid.Col>
        {/* The commands and their progress below the list: the list keeps the width its columns need. */}
        <Grid.Col span={12}>
          <Stack gap="md">
            <Suspense fallback={null}>
              <SignageCommandCard
                selected={selected}
                onDispatched={(dispatchId) => void navigate({ search: { ...search, dispatch: dispatchId }, replace: true, resetScroll: false })}
              />
            </Suspense>
            <DispatchPanel family={DeviceFamily.Signage} dispatchId={search.dispatch ?? null} describe={describeSignageDispatch} />
          </Stack>
        </Grid.Col>
      </Grid>
      <Suspense fallback={null}>
        {list.formOpen && <SignageDeviceFormModal opened device={list.editing} onClose={list.closeForm} />}
        {viewed && <SignageScreenshotModal device={viewed} onClose={() => setViewing(null)} />}
        {binding && (
          <SignageBindDialog mode={binding} ids={selected} onClose={() => setBinding(null)} onDone={() => selection.setSelected(new Set())} />
        )}
      </Suspense>
    </PagePanel>
  );
}
