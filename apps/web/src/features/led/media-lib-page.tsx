import { useState } from 'react';
import { Badge, Button, Image, Stack, Table } from '@mantine/core';
import { IconEye, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, LED_MEDIA_NAME_MAX, LED_MEDIA_TYPES, MediaType, type LedMediaRow } from '@sc/contracts';
import { ApiError } from '@/api/request';
import { useButton } from '@/auth/session-store';
import { deleteAfterConfirm } from '@/components/confirm';
import { Deferred, lazyComponent } from '@/components/deferred';
import { NameFilter, OptionFilter } from '@/components/filter-fields';
import { notifyError } from '@/components/notify';
import { FilterBar, PagePanel } from '@/components/page-panel';
import { EditDeleteCell, IconAction } from '@/components/row-actions';
import { ColumnCells, ColumnHeads, OneLine, TableBox, useTableColumns } from '@/components/table-columns';
import { TableFooter } from '@/components/table-footer';
import { TableEmptyRow } from '@/components/table-parts';
import { usePagedFilters } from '@/components/use-paged-filters';
import { formatBytes } from '@/features/broadcast/media-format';
import { formatDuration, formatResolution } from '@/features/signage-materials/format';
import { parseTime } from '@/utils/format';
import { useDeleteLedMedia, useLedMediaPage } from './media-api';

// The dialogs load when first opened, keeping the page's first load small.
const LedMediaUploadModal = lazyComponent(() => import('./media-dialogs'), 'LedMediaUploadModal');
const LedMediaPreviewModal = lazyComponent(() => import('./media-dialogs'), 'LedMediaPreviewModal');

type Dialog = { kind: 'preview'; media: LedMediaRow } | { kind: 'upload' } | null;

/** The LED media library (/ledManage/ledMediaLib): pictures and videos with what the server read from each file. */
export function LedMediaLibPage() {
  const { t } = useTranslation();
  const { field, query, filterBar, footer } = usePagedFilters<{ name?: string; type?: MediaType }>();
  const media = useLedMediaPage(query);
  const remove = useDeleteLedMedia();
  const canAdd = useButton(ButtonPermission.Add);
  const canDelete = useButton(ButtonPermission.Delete);
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const rows = media.data?.list ?? [];
  const f = (field: string) => t(`led:media.fields.${field}`);
  const deleteMedia = (row: LedMediaRow) =>
    deleteAfterConfirm(
      t('led:media.deleteDetail', { name: row.name }),
      () =>
        remove.mutateAsync(row.id).catch((error: unknown) => {
          notifyError(`${t('led:media.deleteFailed')}${error instanceof ApiError ? `: ${error.message}` : ''}`);
          throw error;
        }),
      t('common:feedback.deleted'),
    );
  const columns = useTableColumns<LedMediaRow>('ledMedia', [
    {
      key: 'cover',
      label: f('cover'),
      always: true,
      cell: (m) => <Image src={m.coverUrl} alt={m.name} w={72} h={48} fit="cover" radius="sm" loading="lazy" data-testid="led-media-cover" />,
    },
    { key: 'name', label: f('name'), always: true, cell: (m) => <OneLine fw={500}>{m.name}</OneLine> },
    {
      key: 'type',
      label: f('type'),
      cell: (m) => (
        <Badge color={m.type === MediaType.Picture ? 'blue' : 'grape'} variant="light" data-testid="led-media-type" data-type={m.type}>
          {t(`led:media.type.${m.type}`)}
        </Badge>
      ),
    },
    { key: 'resolution', label: f('resolution'), td: { 'data-testid': 'led-media-resolution' }, cell: (m) => formatResolution(m.width, m.height) },
    {
      key: 'duration',
      label: f('duration'),
      align: 'right',
      td: { 'data-testid': 'led-media-duration' },
      cell: (m) => (m.duration === null ? '—' : formatDuration(m.duration)),
    },
    { key: 'fileSize', label: f('fileSize'), align: 'right', cell: (m) => formatBytes(m.fileSize) },
    { key: 'uploadedAt', label: f('uploadedAt'), cell: (m) => parseTime(m.uploadedAt) },
    { key: 'uploader', label: f('uploader'), hidden: true, cell: (m) => m.uploader },
  ]);

  return (
    <PagePanel
      title={t('common:route.ledMediaLib')}
      actions={
        canAdd && (
          <Button leftSection={<IconUpload size={16} />} onClick={() => setDialog({ kind: 'upload' })} data-testid="led-media-upload-open">
            {t('led:media.upload')}
          </Button>
        )
      }
    >
      <Stack gap="sm">
        <FilterBar {...filterBar} testId="led-media">
          <NameFilter label={f('name')} maxLength={LED_MEDIA_NAME_MAX} {...field('name')} testId="led-media-name-filter" />
          <OptionFilter
            label={f('type')}
            placeholder={t('led:media.allTypes')}
            options={LED_MEDIA_TYPES.map((type) => ({ value: type, label: t(`led:media.type.${type}`) }))}
            {...field('type')}
            width={160}
            testId="led-media-type-filter"
          />
        </FilterBar>
        <TableBox>
          <Table striped verticalSpacing={4} data-testid="led-media-table">
            <ColumnHeads columns={columns} />
            <Table.Tbody>
              {rows.length === 0 && !media.isLoading && <TableEmptyRow colSpan={columns.span()} py="lg" />}
              {rows.map((row) => (
                <Table.Tr key={row.id} data-testid={`led-media-row-${row.name}`}>
                  <ColumnCells columns={columns} row={row} />
                  <EditDeleteCell
                    canEdit={false}
                    canDelete={canDelete}
                    onEdit={() => undefined}
                    onDelete={() => void deleteMedia(row)}
                    deleteTestId="led-media-delete"
                  >
                    <IconAction label={t('led:media.preview')} onClick={() => setDialog({ kind: 'preview', media: row })} testId="led-media-preview">
                      <IconEye size={18} />
                    </IconAction>
                  </EditDeleteCell>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableBox>
        <TableFooter {...footer(media.data?.total ?? 0)} />
      </Stack>
      <Deferred when={dialog !== null}>
        {dialog?.kind === 'upload' && <LedMediaUploadModal onClose={close} />}
        {dialog?.kind === 'preview' && <LedMediaPreviewModal media={dialog.media} onClose={close} />}
      </Deferred>
    </PagePanel>
  );
}
