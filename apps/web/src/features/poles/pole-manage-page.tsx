import { lazy, Suspense, useEffect, useState } from 'react';
import { Badge, Button, Table } from '@mantine/core';
import { IconPlus, IconPlug } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, DeviceFamily, Role, type PoleRow } from '@sc/contracts';
import { PagePanel, FilterBar } from '@/components/page-panel';
import { TableFooter } from '@/components/table-footer';
import { AreaCascader } from '@/components/area-cascader';
import { deleteAfterConfirm } from '@/components/confirm';
import { NameFilter, OptionFilter } from '@/components/filter-fields';
import { EditDeleteCell, IconAction } from '@/components/row-actions';
import { RenewMqttAction } from '@/components/renew-mqtt-action';
import { TableEmptyRow } from '@/components/table-parts';
import { ColumnCells, ColumnHeads, OneLine, TableBox, useTableColumns } from '@/components/table-columns';
import { draftFields } from '@/components/use-paged-filters';
import { useButton, useSession } from '@/auth/session-store';
import { compact, paging } from '@/navigation/search-params';
import { ExportButton, ImportButton } from '@/features/imports/import-button';
import { poleKeys, useDeletePole, usePoleGroups, usePolePage } from './api';
import type { PoleSearch } from './search';
import { useQueryClient } from '@tanstack/react-query';
import { useRegionLabel } from '@/features/region/area-tree';

const route = getRouteApi('/_auth/_shell/lampPole/poleManage');

// Forms and the devices drawer load when first opened.
const PoleFormModal = lazy(() => import('./pole-form-modal').then((m) => ({ default: m.PoleFormModal })));
const PoleDevicesDrawer = lazy(() => import('./pole-devices-drawer').then((m) => ({ default: m.PoleDevicesDrawer })));

function PoleFilters({ search, onApply }: { search: PoleSearch; onApply: (next: PoleSearch) => void }) {
  const { t } = useTranslation();
  const groups = usePoleGroups();
  const [draft, setDraft] = useState(search);
  const field = draftFields(draft, setDraft);
  useEffect(() => setDraft(search), [search]);
  return (
    <FilterBar
      onSubmit={() => onApply(compact({ pageSize: search.pageSize, ...draft, pageNum: undefined, name: draft.name?.trim() || undefined }))}
      onReset={() => {
        setDraft({});
        onApply(compact({ pageSize: search.pageSize }));
      }}
      testId="pole"
    >
      <NameFilter label={t('poles:fields.name')} placeholder={t('poles:list.namePlaceholder')} {...field('name')} name="name" width={200} />
      <AreaCascader
        label={t('poles:fields.region')}
        value={draft.regionId ?? null}
        onChange={(id) => setDraft({ ...draft, regionId: id ?? undefined })}
      />
      <OptionFilter
        label={t('poles:fields.group')}
        placeholder={t('poles:list.all')}
        options={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
        {...field('groupId')}
      />
    </FilterBar>
  );
}

/** /lampPole/poleManage: lamp poles, where they stand, and the devices mounted on them. */
export function PoleManagePage() {
  const { t } = useTranslation();
  const regionLabel = useRegionLabel();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const queryClient = useQueryClient();
  const { pageNum, pageSize } = paging(search);
  const poles = usePolePage({ ...search, pageNum, pageSize });
  const remove = useDeletePole();
  const isAdmin = useSession((s) => s.roles.includes(Role.Admin));
  // Changes are an administrator's (pole manage admits admin and visit; a visitor views).
  const canAdd = useButton(ButtonPermission.Add) && isAdmin;
  const canEdit = useButton(ButtonPermission.Edit) && isAdmin;
  const canDelete = useButton(ButtonPermission.Delete) && isAdmin;
  const [form, setForm] = useState<{ opened: boolean; pole: PoleRow | null; used: boolean }>({ opened: false, pole: null, used: false });
  const [devicesOf, setDevicesOf] = useState<PoleRow | null>(null);

  const rows = poles.data?.list ?? [];
  const columns = useTableColumns<PoleRow>('poles', [
    { key: 'name', label: t('poles:fields.name'), always: true, cell: (pole) => <OneLine fw={500}>{pole.name}</OneLine> },
    { key: 'code', label: t('poles:fields.code'), td: { ff: 'monospace' }, cell: (pole) => pole.code },
    { key: 'region', label: t('poles:fields.region'), cell: (pole) => <OneLine maw="10rem">{regionLabel(pole)}</OneLine> },
    { key: 'group', label: t('poles:fields.group'), cell: (pole) => <OneLine maw="10rem">{pole.groupName ?? '—'}</OneLine> },
    {
      key: 'position',
      label: t('poles:fields.position'),
      hidden: true,
      cell: (pole) => (pole.latitude === null || pole.longitude === null ? '—' : `${pole.latitude.toFixed(5)}, ${pole.longitude.toFixed(5)}`),
    },
    { key: 'address', label: t('poles:fields.address'), cell: (pole) => <OneLine>{pole.address || '—'}</OneLine> },
    {
      key: 'mounted',
      label: t('poles:fields.mounted'),
      cell: (pole) => (
        <Badge variant="light" color={pole.mountedCount > 0 ? 'blue' : 'gray'} data-testid="pole-mounted-count">
          {pole.mountedCount}
        </Badge>
      ),
    },
  ]);
  return (
    <PagePanel
      title={t('common:route.poleManage')}
      actions={
        <>
          {isAdmin && <ImportButton kind="lamp" onImported={() => void queryClient.invalidateQueries({ queryKey: poleKeys.all })} />}
          <ExportButton kind="lamp" search={search} />
          {canAdd && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setForm({ opened: true, pole: null, used: true })} data-testid="pole-add">
              {t('poles:list.add')}
            </Button>
          )}
        </>
      }
    >
      <PoleFilters search={search} onApply={(next) => void navigate({ search: next })} />
      <TableBox>
        <Table striped data-testid="pole-table">
          <ColumnHeads columns={columns} />
          <Table.Tbody>
            {rows.length === 0 && !poles.isLoading && (
              <TableEmptyRow colSpan={columns.span()} py="lg">
                {t('poles:list.noPoles')}
              </TableEmptyRow>
            )}
            {rows.map((pole) => (
              <Table.Tr key={pole.id} data-testid={`pole-row-${pole.code}`}>
                <ColumnCells columns={columns} row={pole} />
                <EditDeleteCell
                  canEdit={canEdit}
                  canDelete={canDelete}
                  onEdit={() => setForm({ opened: true, pole, used: true })}
                  onDelete={() => void deleteAfterConfirm(pole.name, () => remove.mutateAsync(pole.id), t('poles:list.deleted', { name: pole.name }))}
                  editTestId="pole-edit"
                  deleteTestId="pole-delete"
                >
                  <IconAction label={t('poles:list.details')} variant="subtle" onClick={() => setDevicesOf(pole)} testId="pole-devices">
                    <IconPlug size={18} />
                  </IconAction>
                  {isAdmin && <RenewMqttAction family={DeviceFamily.Pole} id={pole.id} name={pole.name} testId="pole-renew-mqtt" />}
                </EditDeleteCell>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableBox>
      <TableFooter
        total={poles.data?.total ?? 0}
        pageNum={pageNum}
        pageSize={pageSize}
        onChange={(page) => void navigate({ search: { ...search, ...page } })}
      />
      {form.used && (
        <Suspense fallback={null}>
          <PoleFormModal opened={form.opened} pole={form.pole} canAddGroup={canAdd} onClose={() => setForm((f) => ({ ...f, opened: false }))} />
        </Suspense>
      )}
      {devicesOf && (
        <Suspense fallback={null}>
          <PoleDevicesDrawer pole={devicesOf} canEdit={canEdit} onClose={() => setDevicesOf(null)} />
        </Suspense>
      )}
    </PagePanel>
  );
}
