import { useState } from 'react';
import { Badge, Button, Center, Group, Image, Stack, Switch, Table } from '@mantine/core';
import { IconEye, IconMusic, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  Button as ButtonPermission,
  MATERIAL_NAME_MAX,
  MATERIAL_STATUSES,
  MATERIAL_TYPES,
  MaterialStatus,
  MaterialType,
  type MaterialRow,
} from '@sc/contracts';
import { ApiError } from '@/api/request';
import { useButton } from '@/auth/session-store';
import { deleteAfterConfirm } from '@/components/confirm';
import { Deferred, lazyComponent } from '@/components/deferred';
import { NameFilter, OptionFilter } from '@/components/filter-fields';
import { notifyError, notifySuccess } from '@/components/notify';
import { FilterBar } from '@/components/page-panel';
import { EditDeleteCell, IconAction } from '@/components/row-actions';
import { ColumnCells, ColumnHeads, OneLine, TableBox, useTableColumns } from '@/components/table-columns';
import { TableFooter } from '@/components/table-footer';
import { TableEmptyRow } from '@/components/table-parts';
import { usePagedFilters } from '@/components/use-paged-filters';
import { formatBytes } from '@/features/broadcast/media-format';
import { parseTime } from '@/utils/format';
import { useDeleteMaterial, useMaterialPage, useMaterialStatus } from './api';
import { formatDuration, formatResolution } from './format';

// The dialogs load when first opened, keeping the page's first load small.
const MaterialUploadModal = lazyComponent(() => import('./dialogs'), 'MaterialUploadModal');
const MaterialEditModal = lazyComponent(() => import('./dialogs'), 'MaterialEditModal');
const MaterialPreviewModal = lazyComponent(() => import('./dialogs'), 'MaterialPreviewModal');

const TYPE_COLOR: Record<MaterialType, string> = { image: 'blue', video: 'grape', music: 'teal' };
const COVER = { w: 72, h: 48 };

function Cover({ material }: { material: MaterialRow }) {
  const { t } = useTranslation();
  if (!material.coverUrl) {
    return (
      <Center w={COVER.w} h={COVER.h} bg="var(--mantine-color-default-hover)" style={{ borderRadius: 4 }} title={t('signageMaterials:noCover')}>
        <IconMusic size={22} data-testid="material-music-icon" />
      </Center>
    );
  }
  return (
    <Image src={material.coverUrl} alt={material.name} w={COVER.w} h={COVER.h} fit="cover" radius="sm" loading="lazy" data-testid="material-cover" />
  );
}

type Dialog = { kind: 'edit' | 'preview'; material: MaterialRow } | { kind: 'upload' } | null;

/**
 * Material Management: the images, videos and music of the floor screens' ads, with what the server read from each
 * file and its cover; upload with progress, preview, edit (name, storage area), available or not, delete.
 */
export function MaterialsTab() {
  const { t } = useTranslation();
  const { field, query, filterBar, footer } = usePagedFilters<{ name?: string; type?: MaterialType; status?: MaterialStatus }>();
  const materials = useMaterialPage(query);
  const remove = useDeleteMaterial();
  const setStatus = useMaterialStatus();
  const canAdd = useButton(ButtonPermission.Add);
  const canEdit = useButton(ButtonPermission.Edit);
  const canDelete = useButton(ButtonPermission.Delete);
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const rows = materials.data?.list ?? [];
  const f = (field: string) => t(`signageMaterials:fields.${field}`);
  const changeStatus = (material: MaterialRow, available: boolean) =>
    setStatus
      .mutateAsync({ id: material.id, status: available ? MaterialStatus.Available : MaterialStatus.Unavailable })
      .then(() => notifySuccess(t('common:feedback.updated')))
      .catch(() => undefined);
  const deleteMaterial = (material: MaterialRow) =>
    deleteAfterConfirm(
      t('signageMaterials:deleteDetail', { name: material.name }),
      () =>
        remove.mutateAsync(material.id).catch((error: unknown) => {
          const reason = error instanceof ApiError ? `: ${error.message}` : '';
          notifyError(`${t('signageMaterials:deleteFailed')}${reason}`);
          throw error;
        }),
      t('common:feedback.deleted'),
    );
  const columns = useTableColumns<MaterialRow>('signageMaterials', [
    { key: 'cover', label: f('cover'), always: true, cell: (m) => <Cover material={m} /> },
    { key: 'name', label: f('name'), always: true, cell: (m) => <OneLine fw={500}>{m.name}</OneLine> },
    {
      key: 'type',
      label: f('type'),
      cell: (m) => (
        <Badge color={TYPE_COLOR[m.type]} variant="light" data-testid="material-type" data-type={m.type}>
          {t(`signageMaterials:type.${m.type}`)}
        </Badge>
      ),
    },
    { key: 'resolution', label: f('resolution'), td: { 'data-testid': 'material-resolution' }, cell: (m) => formatResolution(m.width, m.height) },
    {
      key: 'duration',
      label: f('duration'),
      align: 'right',
      td: { 'data-testid': 'material-duration' },
      cell: (m) => (m.duration === null ? '—' : formatDuration(m.duration)),
    },
    { key: 'fileSize', label: f('fileSize'), align: 'right', cell: (m) => formatBytes(m.fileSize) },
    { key: 'uploadedAt', label: f('uploadedAt'), cell: (m) => parseTime(m.uploadedAt) },
    {
      key: 'status',
      label: f('status'),
      cell: (m) => (
        <Switch
          checked={m.status === MaterialStatus.Available}
          disabled={!canEdit}
          onChange={(e) => void changeStatus(m, e.currentTarget.checked)}
          label={t(`signageMaterials:status.${m.status}`)}
          data-testid="material-status"
        />
      ),
    },
    { key: 'storageArea', label: f('storageArea'), align: 'right', cell: (m) => m.storageArea ?? '—' },
    { key: 'uploader', label: f('uploader'), hidden: true, cell: (m) => m.uploader },
  ]);

  return (
    <Stack gap="sm">
      {canAdd && (
        <Group justify="flex-end">
          <Button leftSection={<IconUpload size={16} />} onClick={() => setDialog({ kind: 'upload' })} data-testid="material-upload">
            {t('signageMaterials:upload')}
          </Button>
        </Group>
      )}
      <FilterBar {...filterBar} testId="material">
        <NameFilter label={f('name')} maxLength={MATERIAL_NAME_MAX} {...field('name')} testId="material-name-filter" />
        <OptionFilter
          label={f('type')}
          placeholder={t('signageMaterials:allTypes')}
          options={MATERIAL_TYPES.map((type) => ({ value: type, label: t(`signageMaterials:type.${type}`) }))}
          {...field('type')}
          width={160}
        />
        <OptionFilter
          label={f('status')}
          placeholder={t('signageMaterials:allStatuses')}
          options={MATERIAL_STATUSES.map((status) => ({ value: status, label: t(`signageMaterials:status.${status}`) }))}
          {...field('status')}
          width={160}
        />
      </FilterBar>
      <TableBox>
        <Table striped verticalSpacing={4} data-testid="material-table">
          <ColumnHeads columns={columns} />
          <Table.Tbody>
            {rows.length === 0 && !materials.isLoading && <TableEmptyRow colSpan={columns.span()} py="lg" />}
            {rows.map((material) => (
              <Table.Tr key={material.id} data-testid={`material-row-${material.name}`}>
                <ColumnCells columns={columns} row={material} />
                <EditDeleteCell
                  canEdit={canEdit}
                  canDelete={canDelete}
                  onEdit={() => setDialog({ kind: 'edit', material })}
                  onDelete={() => void deleteMaterial(material)}
                  editLabel={t('signageMaterials:edit')}
                  editTestId="material-edit"
                  deleteTestId="material-delete"
                >
                  <IconAction
                    label={t('signageMaterials:preview')}
                    onClick={() => setDialog({ kind: 'preview', material })}
                    testId="material-preview"
                  >
                    <IconEye size={18} />
                  </IconAction>
                </EditDeleteCell>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableBox>
      <TableFooter {...footer(materials.data?.total ?? 0)} />
      <Deferred when={dialog !== null}>
        {dialog?.kind === 'upload' && <MaterialUploadModal onClose={close} />}
        {dialog?.kind === 'edit' && <MaterialEditModal material={dialog.material} onClose={close} />}
        {dialog?.kind === 'preview' && <MaterialPreviewModal material={dialog.material} onClose={close} />}
      </Deferred>
    </Stack>
  );
}
