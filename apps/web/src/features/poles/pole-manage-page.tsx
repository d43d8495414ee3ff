import { lazy, Suspense, useEffect, useState } from 'react';
import { ActionIcon, Badge, Button, Group, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { Select } from '@/components/select';
import { IconEdit, IconPlus, IconPlug, IconTrash } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, Role, type PoleRow } from '@sc/contracts';
import { PagePanel, FilterBar } from '@/components/page-panel';
import { TableFooter } from '@/components/table-footer';
import { AreaCascader } from '@/components/area-cascader';
import { confirmDelete } from '@/components/confirm';
import { notifySuccess } from '@/components/notify';
import { useButton, useSession } from '@/auth/session-store';
import { compact, paging } from '@/navigation/search-params';
import { ExportButton, ImportButton } from '@/features/imports/import-button';
import { poleKeys, useDeletePole, usePoleGroups, usePolePage } from './api';
import type { PoleSearch } from './search';
import { useQueryClient } from '@tanstack/react-query';

const route = getRouteApi('/_auth/_shell/lampPole/poleManage');

// Forms and the devices drawer load when first opened.
const PoleFormModal = lazy(() => import('./pole-form-modal').then((m) => ({ default: m.PoleFormModal })));
const PoleDevicesDrawer = lazy(() => import('./pole-devices-drawer').then((m) => ({ default: m.PoleDevicesDrawer })));

function PoleFilters({ search, onApply }: { search: PoleSearch; onApply: (next: PoleSearch) => void }) {
  const { t } = useTranslation();
  const groups = usePoleGroups();
  const [draft, setDraft] = useState(search);
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
      <TextInput
        label={t('poles:fields.name')}
        placeholder={t('poles:list.namePlaceholder')}
        value={draft.name ?? ''}
        onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })}
        name="name"
        w={{ base: '100%', sm: 200 }}
      />
      <AreaCascader
        label={t('poles:fields.region')}
        value={draft.regionId ?? null}
        onChange={(id) => setDraft({ ...draft, regionId: id ?? undefined })}
      />
      <Select
        label={t('poles:fields.group')}
        placeholder={t('poles:list.all')}
        clearable
        data={(groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name }))}
        value={draft.groupId === undefined ? null : String(draft.groupId)}
        onChange={(v) => setDraft({ ...draft, groupId: v === null ? undefined : Number(v) })}
        w={{ base: '100%', sm: 180 }}
      />
    </FilterBar>
  );
}

/** /lampPole/poleManage: lamp poles, where they stand, and the devices mounted on them. */
export function PoleManagePage() {
  const { t } = useTranslation();
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
  const del = async (pole: PoleRow) => {
    if (!(await confirmDelete(pole.name))) return;
    try {
      await remove.mutateAsync(pole.id);
      notifySuccess(t('poles:list.deleted', { name: pole.name }));
    } catch {
      // The refusal is already on screen.
    }
  };

  return (
    <PagePanel
      title={t('common:route.poleManage')}
      actions={
        <>
          {isAdmin && <ImportButton kind="lamp" onImported={() => void queryClient.invalidateQueries({ queryKey: poleKeys.all })} />}
          <ExportButton kind="lamp" filters={{ name: search.name, regionId: search.regionId, groupId: search.groupId }} />
          {canAdd && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setForm({ opened: true, pole: null, used: true })} data-testid="pole-add">
              {t('poles:list.add')}
            </Button>
          )}
        </>
      }
    >
      <PoleFilters search={search} onApply={(next) => void navigate({ search: next })} />
      <Table.ScrollContainer minWidth={960} type="native">
        <Table striped data-testid="pole-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('poles:fields.name')}</Table.Th>
              <Table.Th>{t('poles:fields.code')}</Table.Th>
              <Table.Th>{t('poles:fields.region')}</Table.Th>
              <Table.Th>{t('poles:fields.group')}</Table.Th>
              <Table.Th>{t('poles:fields.position')}</Table.Th>
              <Table.Th>{t('poles:fields.address')}</Table.Th>
              <Table.Th>{t('poles:fields.mounted')}</Table.Th>
              <Table.Th ta="right">{t('common:actions.operations')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 && !poles.isLoading && (
              <Table.Tr>
                <Table.Td colSpan={8}>
                  <Text c="dimmed" ta="center" py="lg">
                    {t('poles:list.noPoles')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {rows.map((pole) => (
              <Table.Tr key={pole.id} data-testid={`pole-row-${pole.code}`}>
                <Table.Td fw={500}>{pole.name}</Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {pole.code}
                  </Text>
                </Table.Td>
                <Table.Td>{pole.regionName ?? '—'}</Table.Td>
                <Table.Td>{pole.groupName ?? '—'}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {pole.latitude === null || pole.longitude === null ? '—' : `${pole.latitude.toFixed(5)}, ${pole.longitude.toFixed(5)}`}
                </Table.Td>
                <Table.Td>{pole.address || '—'}</Table.Td>
                <Table.Td>
                  <Badge variant="light" color={pole.mountedCount > 0 ? 'blue' : 'gray'} data-testid="pole-mounted-count">
                    {pole.mountedCount}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <Tooltip label={t('poles:list.details')}>
                      <ActionIcon variant="subtle" onClick={() => setDevicesOf(pole)} aria-label={t('poles:list.details')} data-testid="pole-devices">
                        <IconPlug size={18} />
                      </ActionIcon>
                    </Tooltip>
                    {canEdit && (
                      <Tooltip label={t('common:actions.edit')}>
                        <ActionIcon
                          onClick={() => setForm({ opened: true, pole, used: true })}
                          aria-label={t('common:actions.edit')}
                          data-testid="pole-edit"
                        >
                          <IconEdit size={18} />
                        </ActionIcon>
                      </Tooltip>
                    )}
                    {canDelete && (
                      <Tooltip label={t('common:actions.delete')}>
                        <ActionIcon color="red" onClick={() => void del(pole)} aria-label={t('common:actions.delete')} data-testid="pole-delete">
                          <IconTrash size={18} />
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
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
