import { Suspense, lazy } from 'react';
import { ActionIcon, Button, Grid, Stack } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, DeviceFamily, type StripRow } from '@sc/contracts';
import { PagePanel } from '@/components/page-panel';
import { TableFooter } from '@/components/table-footer';
import { DeviceListFilters, DeviceTable, useDeviceList } from '@/components/device-list';
import { NameCode } from '@/components/table-parts';
import { PinnedActionsCell, type Column } from '@/components/table-columns';
import { useButton } from '@/auth/session-store';
import { paging } from '@/navigation/search-params';
import { DispatchPanel } from '@/features/dispatch/dispatch-panel';
import { RenewMqttAction } from '@/components/renew-mqtt-action';
import { LampStatusBadge, NetworkBadge, TelemetryCell } from '@/features/lighting/lamp-badges';
import { useDeleteStrip, useLiveStrips, useStripPage } from './api';
import { StripLabels, StripZones } from './strip-badges';
import { describeStripDispatch } from './strip-dispatch';

// The form loads when first opened, and the effect card (selects, tick boxes) beside the page, keeping its first load small.
const StripFormModal = lazy(() => import('./strip-form-modal').then((m) => ({ default: m.StripFormModal })));
const StripEffectCard = lazy(() => import('./strip-effect-card').then((m) => ({ default: m.StripEffectCard })));

const route = getRouteApi('/_auth/_shell/smartLamp/lightManage');

/** The strip lights' columns: name, labels, network and the zones' effects by default; the rest in the column chooser. */
function useStripColumns(): Column<StripRow>[] {
  const { t } = useTranslation();
  return [
    {
      key: 'name',
      label: t('strip:fields.lampName'),
      always: true,
      cell: (strip) => <NameCode name={strip.lampName} code={strip.clientId} fw={500} />,
    },
    { key: 'labels', label: t('strip:fields.statusLabels'), cell: (strip) => <StripLabels labels={strip.statusLabels} /> },
    { key: 'status', label: t('strip:fields.status'), hidden: true, cell: (strip) => <LampStatusBadge status={strip.status} /> },
    { key: 'network', label: t('strip:fields.networkStatus'), cell: (strip) => <NetworkBadge networkStatus={strip.networkStatus} /> },
    { key: 'zones', label: t('strip:fields.zones'), cell: (strip) => <StripZones strip={strip} /> },
    { key: 'bri', label: t('strip:fields.bri'), hidden: true, td: { 'data-testid': 'strip-bri' }, cell: (strip) => `${strip.bri} %` },
    { key: 'power', label: t('strip:fields.power'), hidden: true, cell: (strip) => <TelemetryCell lamp={strip} /> },
    { key: 'group', label: t('strip:fields.group'), hidden: true, cell: (strip) => strip.groupName ?? '—' },
    { key: 'gateway', label: t('strip:fields.gatewayId'), hidden: true, td: { ff: 'monospace' }, cell: (strip) => strip.gatewayId || '—' },
  ];
}

/** /smartLamp/lightManage: the strip lights with their status labels, live; light effects on the selected ones. */
export function StripManagePage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { pageNum, pageSize } = paging(search);
  const strips = useStripPage({ lampName: search.lampName, regionId: search.regionId, pageNum, pageSize });
  const remove = useDeleteStrip();
  const canAdd = useButton(ButtonPermission.Add);
  const canEdit = useButton(ButtonPermission.Edit);
  const canDelete = useButton(ButtonPermission.Delete);
  useLiveStrips();
  // Dispatch progress events, for the panel.

  const rows = strips.data?.list ?? [];
  const list = useDeviceList({
    search,
    go: (next) => void navigate({ search: next }),
    rows,
    table: 'strips',
    columns: useStripColumns(),
    remove: (id) => remove.mutateAsync(id),
    deleteText: (strip) => t('strip:list.deleteDetail', { name: strip.lampName }),
  });
  const { selection, columns, draft, setDraft, apply } = list;
  const { selected } = selection;

  return (
    <PagePanel
      title={t('common:route.lightManage')}
      actions={
        canAdd && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => list.edit(null)} data-testid="strip-add">
            {t('strip:list.add')}
          </Button>
        )
      }
    >
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, xl: 8 }}>
          <Stack gap="sm">
            <DeviceListFilters
              testId="strip"
              nameKey="lampName"
              nameLabel={t('strip:fields.lampName')}
              regionLabel={t('strip:fields.region')}
              draft={draft}
              setDraft={setDraft}
              apply={apply}
            />
            <DeviceTable
              testId="strip"
              rows={rows}
              loading={strips.isLoading}
              selection={selection}
              columns={columns}
              texts="strip:list"
              rowLabel={(strip) => strip.lampName}
              rowTestId={(strip) => `strip-row-${strip.clientId}`}
              withActions={canEdit || canDelete}
              actions={(strip) => (
                <PinnedActionsCell>
                  {canEdit && (
                    <ActionIcon variant="subtle" aria-label={t('strip:list.edit')} onClick={() => list.edit(strip)}>
                      <IconPencil size={16} />
                    </ActionIcon>
                  )}
                  <RenewMqttAction family={DeviceFamily.Strip} id={strip.id} name={strip.lampName} testId="strip-renew-mqtt" />
                  {canDelete && (
                    <ActionIcon variant="subtle" color="red" aria-label={t('common:actions.delete')} onClick={() => void list.deleteRow(strip)}>
                      <IconTrash size={16} />
                    </ActionIcon>
                  )}
                </PinnedActionsCell>
              )}
            />
            <TableFooter
              total={strips.data?.total ?? 0}
              pageNum={pageNum}
              pageSize={pageSize}
              onChange={(page) => void navigate({ search: { ...search, ...page } })}
            />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, xl: 4 }}>
          <Stack gap="md">
            <Suspense fallback={null}>
              <StripEffectCard
                selected={[...selected]}
                onDispatched={(dispatchId) => void navigate({ search: { ...search, dispatch: dispatchId }, replace: true, resetScroll: false })}
              />
            </Suspense>
            <DispatchPanel family={DeviceFamily.Strip} dispatchId={search.dispatch ?? null} describe={describeStripDispatch} />
          </Stack>
        </Grid.Col>
      </Grid>
      <Suspense fallback={null}>{list.formOpen && <StripFormModal opened strip={list.editing} onClose={list.closeForm} />}</Suspense>
    </PagePanel>
  );
}
