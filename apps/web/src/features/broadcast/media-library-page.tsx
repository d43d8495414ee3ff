import { useState } from 'react';
import { Badge, Button, Stack, Table } from '@mantine/core';
import { IconChecklist, IconPlayerPlay, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, MEDIA_AUDIT_STATUSES, MEDIA_NAME_MAX, MediaAuditStatus, type MediaRow } from '@sc/contracts';
import { useButton, useSession } from '@/auth/session-store';
import { deleteAfterConfirm } from '@/components/confirm';
import { Deferred, lazyComponent } from '@/components/deferred';
import { NameFilter, OptionFilter } from '@/components/filter-fields';
import { FilterBar, PagePanel } from '@/components/page-panel';
import { EditDeleteCell, IconAction } from '@/components/row-actions';
import { ColumnCells, ColumnHeads, OneLine, TableBox, useTableColumns } from '@/components/table-columns';
import { TableFooter } from '@/components/table-footer';
import { TableEmptyRow } from '@/components/table-parts';
import { usePagedFilters } from '@/components/use-paged-filters';
import { parseTime } from '@/utils/format';
import { useDeleteMedia, useMediaPage } from './media-api';
import { formatBitrate, formatBytes, formatDuration, formatSampleRate } from './media-format';

// The dialogs load when first opened, keeping the page's first load small.
const MediaUploadModal = lazyComponent(() => import('./media-dialogs'), 'MediaUploadModal');
const MediaRenameModal = lazyComponent(() => import('./media-dialogs'), 'MediaRenameModal');
const MediaAuditModal = lazyComponent(() => import('./media-dialogs'), 'MediaAuditModal');
const MediaPreviewModal = lazyComponent(() => import('./media-dialogs'), 'MediaPreviewModal');

const STATUS_COLOR: Record<MediaAuditStatus, string> = { pending: 'yellow', approved: 'teal', rejected: 'red' };

export function AuditBadge({ status }: { status: MediaAuditStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLOR[status]} variant="light" data-testid="media-status" data-status={status}>
      {t(`broadcastMedia:status.${status}`)}
    </Badge>
  );
}

type Dialog = { kind: 'rename' | 'audit' | 'preview'; medium: MediaRow } | { kind: 'upload' } | null;

/**
 * /broadcastManage/mediaLibrary: the MP3s broadcasts play, with what the server read from each file; upload with
 * progress, rename, delete, play, and an administrator's audit (only approved media go into playlists and tasks).
 */
export function MediaLibraryPage() {
  const { t } = useTranslation();
  const { field, query, filterBar, footer } = usePagedFilters<{ name?: string; auditStatus?: MediaAuditStatus }>();
  const media = useMediaPage({ pageNum: query.pageNum, pageSize: query.pageSize, materialName: query.name, auditStatus: query.auditStatus });
  const remove = useDeleteMedia();
  const canAdd = useButton(ButtonPermission.Add);
  const canEdit = useButton(ButtonPermission.Edit);
  const canDelete = useButton(ButtonPermission.Delete);
  const canAudit = useSession((s) => s.isAdmin);
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const rows = media.data?.list ?? [];
  const f = (field: string) => t(`broadcastMedia:fields.${field}`);
  const columns = useTableColumns<MediaRow>('media', [
    { key: 'name', label: f('materialName'), always: true, cell: (m) => <OneLine fw={500}>{m.materialName}</OneLine> },
    { key: 'duration', label: f('duration'), align: 'right', td: { 'data-testid': 'media-duration' }, cell: (m) => formatDuration(m.duration) },
    { key: 'fileSize', label: f('fileSize'), align: 'right', cell: (m) => formatBytes(m.fileSize) },
    { key: 'auditStatus', label: f('auditStatus'), cell: (m) => <AuditBadge status={m.auditStatus} /> },
    { key: 'bitrate', label: f('bitrate'), align: 'right', cell: (m) => formatBitrate(m.bitrate) },
    { key: 'sampleRate', label: f('sampleRate'), align: 'right', hidden: true, cell: (m) => formatSampleRate(m.sampleRate) },
    { key: 'channels', label: f('channels'), align: 'right', hidden: true, cell: (m) => m.channels },
    { key: 'materialType', label: f('materialType'), hidden: true, cell: () => t('broadcastMedia:type.audio') },
    { key: 'playlists', label: f('playlists'), align: 'right', hidden: true, cell: (m) => m.playlistCount },
    { key: 'auditRemark', label: f('auditRemark'), hidden: true, cell: (m) => <OneLine maw="16rem">{m.auditRemark || '—'}</OneLine> },
    { key: 'auditedBy', label: f('auditedBy'), hidden: true, cell: (m) => m.auditedBy ?? '—' },
    { key: 'uploader', label: f('uploader'), cell: (m) => m.uploader },
    { key: 'uploadedAt', label: f('uploadedAt'), cell: (m) => parseTime(m.uploadedAt) },
  ]);

  return (
    <PagePanel
      title={t('common:route.mediaLibrary')}
      actions={
        canAdd && (
          <Button leftSection={<IconUpload size={16} />} onClick={() => setDialog({ kind: 'upload' })} data-testid="media-upload">
            {t('broadcastMedia:upload')}
          </Button>
        )
      }
    >
      <Stack gap="sm">
        <FilterBar {...filterBar} testId="media">
          <NameFilter label={f('materialName')} maxLength={MEDIA_NAME_MAX} {...field('name')} testId="media-name-filter" />
          <OptionFilter
            label={f('auditStatus')}
            placeholder={t('broadcastMedia:allStatuses')}
            options={MEDIA_AUDIT_STATUSES.map((status) => ({ value: status, label: t(`broadcastMedia:status.${status}`) }))}
            {...field('auditStatus')}
          />
        </FilterBar>
        <TableBox>
          <Table striped data-testid="media-table">
            <ColumnHeads columns={columns} />
            <Table.Tbody>
              {rows.length === 0 && !media.isLoading && <TableEmptyRow colSpan={columns.span()} py="lg" />}
              {rows.map((medium) => (
                <Table.Tr key={medium.id} data-testid={`media-row-${medium.materialName}`}>
                  <ColumnCells columns={columns} row={medium} />
                  <EditDeleteCell
                    canEdit={canEdit}
                    canDelete={canDelete}
                    onEdit={() => setDialog({ kind: 'rename', medium })}
                    onDelete={() =>
                      void deleteAfterConfirm(
                        t('broadcastMedia:deleteDetail', { name: medium.materialName }),
                        () => remove.mutateAsync(medium.id),
                        t('common:feedback.deleted'),
                      )
                    }
                    editLabel={t('broadcastMedia:rename')}
                    editTestId="media-rename"
                  >
                    <IconAction label={t('broadcastMedia:preview')} onClick={() => setDialog({ kind: 'preview', medium })} testId="media-preview">
                      <IconPlayerPlay size={18} />
                    </IconAction>
                    {canAudit && (
                      <IconAction label={t('broadcastMedia:audit')} onClick={() => setDialog({ kind: 'audit', medium })} testId="media-audit">
                        <IconChecklist size={18} />
                      </IconAction>
                    )}
                  </EditDeleteCell>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableBox>
        <TableFooter {...footer(media.data?.total ?? 0)} />
      </Stack>
      <Deferred when={dialog !== null}>
        {dialog?.kind === 'upload' && <MediaUploadModal onClose={close} />}
        {dialog?.kind === 'rename' && <MediaRenameModal medium={dialog.medium} onClose={close} />}
        {dialog?.kind === 'audit' && <MediaAuditModal medium={dialog.medium} onClose={close} />}
        {dialog?.kind === 'preview' && <MediaPreviewModal medium={dialog.medium} onClose={close} />}
      </Deferred>
    </PagePanel>
  );
}
