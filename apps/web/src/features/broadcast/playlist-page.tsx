import { Button, Stack, Table } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, PLAYLIST_NAME_MAX, type PlaylistRow } from '@sc/contracts';
import { useButton } from '@/auth/session-store';
import { deleteAfterConfirm } from '@/components/confirm';
import { Deferred, lazyComponent } from '@/components/deferred';
import { NameFilter } from '@/components/filter-fields';
import { useFormDialog } from '@/components/form-actions';
import { FilterBar, PagePanel } from '@/components/page-panel';
import { EditDeleteCell } from '@/components/row-actions';
import { ColumnCells, ColumnHeads, OneLine, TableBox, useTableColumns } from '@/components/table-columns';
import { TableFooter } from '@/components/table-footer';
import { TableEmptyRow } from '@/components/table-parts';
import { usePagedFilters } from '@/components/use-paged-filters';
import { parseTime } from '@/utils/format';
import { useDeletePlaylist, usePlaylistPage } from './media-api';
import { formatDuration } from './media-format';

const PlaylistFormModal = lazyComponent(() => import('./playlist-form-modal'), 'PlaylistFormModal');

/** /broadcastManage/playList: ordered lists of approved media with a playback mode and their total duration. */
export function PlaylistPage() {
  const { t } = useTranslation();
  const { field, query, filterBar, footer } = usePagedFilters<{ name?: string }>();
  const playlists = usePlaylistPage(query);
  const remove = useDeletePlaylist();
  const canAdd = useButton(ButtonPermission.Add);
  const canEdit = useButton(ButtonPermission.Edit);
  const canDelete = useButton(ButtonPermission.Delete);
  const form = useFormDialog<PlaylistRow>();
  const rows = playlists.data?.list ?? [];
  const columns = useTableColumns<PlaylistRow>('playlists', [
    { key: 'name', label: t('broadcastPlaylists:name'), always: true, cell: (p) => <OneLine fw={500}>{p.name}</OneLine> },
    { key: 'playbackMode', label: t('broadcastPlaylists:playbackMode'), cell: (p) => t(`broadcastPlaylists:modes.${p.playbackMode}`) },
    { key: 'items', label: t('broadcastPlaylists:items'), cell: (p) => t('broadcastPlaylists:itemCount', { count: p.itemCount }) },
    {
      key: 'totalDuration',
      label: t('broadcastPlaylists:totalDuration'),
      align: 'right',
      td: { 'data-testid': 'playlist-total' },
      cell: (p) => formatDuration(p.totalDuration),
    },
    { key: 'updatedBy', label: t('broadcastPlaylists:updatedBy'), cell: (p) => p.updatedBy },
    { key: 'updatedAt', label: t('broadcastPlaylists:updatedAt'), cell: (p) => parseTime(p.updatedAt) },
  ]);

  return (
    <PagePanel
      title={t('common:route.playList')}
      actions={
        canAdd && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => form.open(null)} data-testid="playlist-add">
            {t('broadcastPlaylists:add')}
          </Button>
        )
      }
    >
      <Stack gap="sm">
        <FilterBar {...filterBar} testId="playlist">
          <NameFilter label={t('broadcastPlaylists:name')} maxLength={PLAYLIST_NAME_MAX} {...field('name')} />
        </FilterBar>
        <TableBox>
          <Table striped data-testid="playlist-table">
            <ColumnHeads columns={columns} actions={canEdit || canDelete} />
            <Table.Tbody>
              {rows.length === 0 && !playlists.isLoading && <TableEmptyRow colSpan={columns.span()} py="lg" />}
              {rows.map((playlist) => (
                <Table.Tr key={playlist.id} data-testid={`playlist-row-${playlist.name}`}>
                  <ColumnCells columns={columns} row={playlist} />
                  <EditDeleteCell
                    canEdit={canEdit}
                    canDelete={canDelete}
                    onEdit={() => form.open(playlist)}
                    onDelete={() =>
                      void deleteAfterConfirm(
                        t('broadcastPlaylists:deleteDetail', { name: playlist.name }),
                        () => remove.mutateAsync(playlist.id),
                        t('common:feedback.deleted'),
                      )
                    }
                    editLabel={t('broadcastPlaylists:edit')}
                  />
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableBox>
        <TableFooter {...footer(playlists.data?.total ?? 0)} />
      </Stack>
      <Deferred when={form.opened}>
        <PlaylistFormModal opened={form.opened} playlist={form.row} onClose={form.close} />
      </Deferred>
    </PagePanel>
  );
}
