import { useState } from 'react';
import { ActionIcon, Group, Table } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { MediaAuditStatus, PAGE_SIZE_MAX, PLAYLIST_MAX_ITEMS, PlaybackMode, type PlaylistItem } from '@sc/contracts';
import { Select } from '@/components/select';
import { TableEmptyRow } from '@/components/table-parts';
import { moved } from '@/utils/moved';
import { useMediaPage } from './media-api';
import { formatDuration } from './media-format';

export type OrderedMedium = Pick<PlaylistItem, 'mediaId' | 'materialName' | 'duration'>;

/** Seconds of the media together. */
export const totalDuration = (items: readonly OrderedMedium[]) => items.reduce((sum, item) => sum + item.duration, 0);

/**
 * Approved media in playing order, as a playlist, a task or an alarm announcement holds them: added from a search of the
 * approved media (each once, at most `max`: PLAYLIST_MAX_ITEMS unless told), moved up and down, removed. Test ids start
 * with `testId` (`<testId>-media-select`, `<testId>-items`, `<testId>-item`, `<testId>-item-name`, `<testId>-item-up`).
 */
export function OrderedMediaList({
  items,
  onChange,
  error,
  onError,
  enabled = true,
  max = PLAYLIST_MAX_ITEMS,
  tooMany,
  testId,
}: {
  items: readonly OrderedMedium[];
  onChange: (items: OrderedMedium[]) => void;
  error?: string;
  /** A refused addition's message, or undefined once an addition is taken. */
  onError: (message: string | undefined) => void;
  /** Whether the approved media are read (a closed dialog reads nothing). */
  enabled?: boolean;
  /** The most media the list holds, and what an addition beyond it says (a playlist's words unless told). */
  max?: number;
  tooMany?: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const approved = useMediaPage(
    { pageNum: 1, pageSize: PAGE_SIZE_MAX, auditStatus: MediaAuditStatus.Approved, materialName: search.trim() || undefined },
    enabled,
  );
  const add = (id: string | null) => {
    const medium = approved.data?.list.find((m) => String(m.id) === id);
    setSearch('');
    if (!medium) return;
    if (items.some((i) => i.mediaId === medium.id)) return onError(t('messages:materialAlreadyInPlaylist'));
    if (items.length >= max) return onError(tooMany ?? t('messages:playlistTooLong', { max }));
    onChange([...items, { mediaId: medium.id, materialName: medium.materialName, duration: medium.duration }]);
    onError(undefined);
  };
  const options = (approved.data?.list ?? [])
    .filter((m) => !items.some((i) => i.mediaId === m.id))
    .map((m) => ({ value: String(m.id), label: `${m.materialName} (${formatDuration(m.duration)})` }));

  return (
    <>
      <Select
        label={t('broadcastPlaylists:addMedia')}
        placeholder={t('broadcastPlaylists:addMediaPlaceholder')}
        searchable
        searchValue={search}
        onSearchChange={setSearch}
        nothingFoundMessage={t('broadcastPlaylists:noMedia')}
        data={options}
        value={null}
        onChange={add}
        error={error}
        data-testid={`${testId}-media-select`}
      />
      <Table withTableBorder fz="sm" data-testid={`${testId}-items`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={48}>{t('broadcastPlaylists:order')}</Table.Th>
            <Table.Th>{t('broadcastPlaylists:materialName')}</Table.Th>
            <Table.Th ta="right">{t('broadcastPlaylists:duration')}</Table.Th>
            <Table.Th w={100} />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.length === 0 && <TableEmptyRow colSpan={4}>{t('broadcastPlaylists:noItems')}</TableEmptyRow>}
          {items.map((item, index) => (
            <Table.Tr key={item.mediaId} data-testid={`${testId}-item`}>
              <Table.Td>{index + 1}</Table.Td>
              <Table.Td data-testid={`${testId}-item-name`}>{item.materialName}</Table.Td>
              <Table.Td ta="right">{formatDuration(item.duration)}</Table.Td>
              <Table.Td>
                <Group gap={2} justify="flex-end" wrap="nowrap">
                  <ActionIcon
                    variant="subtle"
                    aria-label={t('broadcastPlaylists:moveUp')}
                    title={t('broadcastPlaylists:moveUp')}
                    disabled={index === 0}
                    onClick={() => onChange(moved(items, index, -1))}
                    data-testid={`${testId}-item-up`}
                  >
                    <IconArrowUp size={16} />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    aria-label={t('broadcastPlaylists:moveDown')}
                    title={t('broadcastPlaylists:moveDown')}
                    disabled={index === items.length - 1}
                    onClick={() => onChange(moved(items, index, 1))}
                  >
                    <IconArrowDown size={16} />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('broadcastPlaylists:remove')}
                    title={t('broadcastPlaylists:remove')}
                    onClick={() => onChange(items.filter((_, i) => i !== index))}
                  >
                    <IconX size={16} />
                  </ActionIcon>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </>
  );
}

/** The spec's playback modes (normal, list cycle, random), one always chosen. */
export function PlaybackModeSelect({ value, onChange, testId }: { value: PlaybackMode; onChange: (mode: PlaybackMode) => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <Select
      label={t('broadcastPlaylists:playbackMode')}
      required
      allowDeselect={false}
      data={Object.values(PlaybackMode).map((mode) => ({ value: mode, label: t(`broadcastPlaylists:modes.${mode}`) }))}
      value={value}
      onChange={(mode) => mode && onChange(mode as PlaybackMode)}
      data-testid={testId}
    />
  );
}
