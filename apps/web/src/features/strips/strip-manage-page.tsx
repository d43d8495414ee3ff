import { Suspense, lazy, useState } from 'react';
import { ActionIcon, Button, Grid, Stack, Table, TextInput } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, DeviceFamily, type StripRow } from '@sc/contracts';
import { AreaCascader } from '@/components/area-cascader';
import { confirmDelete } from '@/components/confirm';
import { notifySuccess } from '@/components/notify';
import { FilterBar, PagePanel } from '@/components/page-panel';
import { TableFooter } from '@/components/table-footer';
import { SelectPageHeader, SelectableRow, SelectionSummary, usePageSelection } from '@/components/selection';
import { NameCode, TableEmptyRow } from '@/components/table-parts';
import { ColumnCells, ColumnHeads, PinnedActionsCell, TableBox, useTableColumns, type Column } from '@/components/table-columns';
import { useButton } from '@/auth/session-store';
import { compact, paging } from '@/navigation/search-params';
import { DispatchPanel } from '@/features/dispatch/dispatch-panel';
import { RenewMqttAction } from '@/components/renew-mqtt-action';
import { LampStatusBadge, NetworkBadge, TelemetryCell } from '@/features/lighting/lamp-badges';
import { useDeleteStrip, useLiveStrips, useStripPage } from './api';
import { StripLabels, StripZones } from './strip-badges';
import { StripEffectCard, describeStripDispatch } from './strip-effect-card';
import type { StripSearch } from './search';

// The form loads when first opened, keeping the page's first load small.
const StripFormModal = lazy(() => import('./strip-form-modal').then((m) => ({ default: m.StripFormModal })));

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

  const [editing, setEditing] = useState<StripRow | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [draft, setDraft] = useState<StripSearch>(search);

  const rows = strips.data?.list ?? [];
  const selection = usePageSelection(rows.map((r) => r.id));
  const columns = useTableColumns('strips', useStripColumns());
  const { selected, setSelected } = selection;
  const apply = (next: StripSearch) => void navigate({ search: compact({ ...next, pageNum: undefined, dispatch: search.dispatch }) });

  const deleteStrip = async (strip: StripRow) => {
    if (!(await confirmDelete(t('strip:list.deleteDetail', { name: strip.lampName })))) return;
    await remove.mutateAsync(strip.id);
    setSelected((current) => new Set([...current].filter((id) => id !== strip.id)));
    notifySuccess(t('common:feedback.deleted'));
  };

  return (
    <PagePanel
      title={t('common:route.lightManage')}
      actions={
        canAdd && (
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={() => {
              setEditing(null);
              setFormOpen(true);
            }}
            data-testid="strip-add"
          >
            {t('strip:list.add')}
          </Button>
        )
      }
    >
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, xl: 8 }}>
          <Stack gap="sm">
            <FilterBar
              onSubmit={() => apply({ ...draft, lampName: draft.lampName?.trim() || undefined })}
              onReset={() => {
                setDraft({});
                apply({});
              }}
              testId="strip"
            >
              <TextInput
                label={t('strip:fields.lampName')}
                value={draft.lampName ?? ''}
                onChange={(e) => setDraft({ ...draft, lampName: e.currentTarget.value })}
                name="lampName"
                w={{ base: '100%', sm: 200 }}
              />
              <AreaCascader
                label={t('strip:fields.region')}
                value={draft.regionId ?? null}
                onChange={(id) => setDraft({ ...draft, regionId: id ?? undefined })}
              />
            </FilterBar>
            <SelectionSummary
              selection={selection}
              text={t('strip:list.selected', { count: selected.size })}
              clearLabel={t('strip:list.clearSelection')}
              testId="strip-selected"
            />
            <TableBox>
              <Table striped highlightOnHover data-testid="strip-table">
                <ColumnHeads
                  columns={columns}
                  actions={canEdit || canDelete}
                  lead={<SelectPageHeader selection={selection} label={t('strip:list.selectPage')} />}
                />
                <Table.Tbody>
                  {rows.length === 0 && (
                    <TableEmptyRow colSpan={columns.span(1)} py="md">
                      {strips.isLoading ? t('common:feedback.loading') : t('strip:list.empty')}
                    </TableEmptyRow>
                  )}
                  {rows.map((strip) => (
                    <SelectableRow key={strip.id} selection={selection} id={strip.id} label={strip.lampName} testId={`strip-row-${strip.clientId}`}>
                      <ColumnCells columns={columns} row={strip} />
                      <PinnedActionsCell>
                        {canEdit && (
                          <ActionIcon
                            variant="subtle"
                            aria-label={t('strip:list.edit')}
                            onClick={() => {
                              setEditing(strip);
                              setFormOpen(true);
                            }}
                          >
                            <IconPencil size={16} />
                          </ActionIcon>
                        )}
                        <RenewMqttAction family={DeviceFamily.Strip} id={strip.id} name={strip.lampName} testId="strip-renew-mqtt" />
                        {canDelete && (
                          <ActionIcon variant="subtle" color="red" aria-label={t('common:actions.delete')} onClick={() => void deleteStrip(strip)}>
                            <IconTrash size={16} />
                          </ActionIcon>
                        )}
                      </PinnedActionsCell>
                    </SelectableRow>
                  ))}
                </Table.Tbody>
              </Table>
            </TableBox>
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
            <StripEffectCard
              selected={[...selected]}
              onDispatched={(dispatchId) => void navigate({ search: { ...search, dispatch: dispatchId }, replace: true, resetScroll: false })}
            />
            <DispatchPanel family={DeviceFamily.Strip} dispatchId={search.dispatch ?? null} describe={describeStripDispatch} />
          </Stack>
        </Grid.Col>
      </Grid>
      <Suspense fallback={null}>{formOpen && <StripFormModal opened strip={editing} onClose={() => setFormOpen(false)} />}</Suspense>
    </PagePanel>
  );
}
