import { useEffect, useState } from 'react';
import { ActionIcon, Group, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  MediaAuditStatus,
  PAGE_SIZE_MAX,
  PLAYLIST_MAX_ITEMS,
  PLAYLIST_NAME_MAX,
  PlaybackMode,
  type PlaylistItem,
  type PlaylistRow,
} from '@sc/contracts';
import { FormActions, saveAndClose } from '@/components/form-actions';
import { Select } from '@/components/select';
import { TableEmptyRow } from '@/components/table-parts';
import { useIsMobile } from '@/layout/use-is-mobile';
import { useMediaPage, usePlaylist, useSavePlaylist } from './media-api';
import { formatDuration } from './media-format';

type Item = Pick<PlaylistItem, 'mediaId' | 'materialName' | 'duration'>;

/** Moves the item at `from` one place up (-1) or down (+1). */
export function moved<T>(items: readonly T[], from: number, by: -1 | 1): T[] {
  const to = from + by;
  if (to < 0 || to >= items.length) return [...items];
  const next = [...items];
  [next[from], next[to]] = [next[to], next[from]];
  return next;
}

/**
 * Add or edit a playlist: its name, playback mode, and its approved media in playing order (added from a search, moved
 * up and down, removed), with the total duration as it will be. Saving sends the whole list.
 */
export function PlaylistFormModal({ opened, playlist, onClose }: { opened: boolean; playlist: PlaylistRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const save = useSavePlaylist();
  const detail = usePlaylist(opened && playlist ? playlist.id : null);
  const [name, setName] = useState('');
  const [mode, setMode] = useState<PlaybackMode>(PlaybackMode.Normal);
  const [items, setItems] = useState<Item[]>([]);
  const [search, setSearch] = useState('');
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const approved = useMediaPage(
    { pageNum: 1, pageSize: PAGE_SIZE_MAX, auditStatus: MediaAuditStatus.Approved, materialName: search.trim() || undefined },
    opened,
  );

  useEffect(() => {
    if (!opened) return;
    setName(playlist?.name ?? '');
    setMode(playlist?.playbackMode ?? PlaybackMode.Normal);
    setItems([]);
    setErrors({});
  }, [opened, playlist]);
  useEffect(() => {
    if (detail.data) setItems(detail.data.items);
  }, [detail.data]);

  const add = (id: string | null) => {
    const medium = approved.data?.list.find((m) => String(m.id) === id);
    setSearch('');
    if (!medium) return;
    if (items.some((i) => i.mediaId === medium.id)) return setErrors({ mediaIds: t('messages:materialAlreadyInPlaylist') });
    if (items.length >= PLAYLIST_MAX_ITEMS) return setErrors({ mediaIds: t('messages:playlistTooLong', { max: PLAYLIST_MAX_ITEMS }) });
    setItems([...items, { mediaId: medium.id, materialName: medium.materialName, duration: medium.duration }]);
    setErrors({ ...errors, mediaIds: undefined });
  };
  const submit = async () => {
    const problems = {
      name: name.trim() ? undefined : t('messages:nameEmpty'),
      mediaIds: items.length ? undefined : t('messages:playlistNeedsMedia'),
    };
    if (problems.name || problems.mediaIds) return setErrors(problems);
    await saveAndClose(
      () =>
        save.mutateAsync({ ...(playlist ? { id: playlist.id } : {}), name: name.trim(), playbackMode: mode, mediaIds: items.map((i) => i.mediaId) }),
      { updated: Boolean(playlist), close: onClose, setErrors },
    );
  };
  const total = items.reduce((sum, item) => sum + item.duration, 0);
  const options = (approved.data?.list ?? [])
    .filter((m) => !items.some((i) => i.mediaId === m.id))
    .map((m) => ({ value: String(m.id), label: `${m.materialName} (${formatDuration(m.duration)})` }));

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t(playlist ? 'broadcast:playlists.edit' : 'broadcast:playlists.add')}
      size="lg"
      fullScreen={mobile}
    >
      <form
        noValidate
        data-testid="playlist-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack>
          <Group grow align="flex-start">
            <TextInput
              label={t('broadcast:playlists.name')}
              required
              maxLength={PLAYLIST_NAME_MAX}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={errors.name}
              data-testid="playlist-name"
            />
            <Select
              label={t('broadcast:playlists.playbackMode')}
              required
              allowDeselect={false}
              data={Object.values(PlaybackMode).map((value) => ({ value, label: t(`broadcast:playlists.modes.${value}`) }))}
              value={mode}
              onChange={(value) => value && setMode(value as PlaybackMode)}
              data-testid="playlist-mode"
            />
          </Group>
          <Select
            label={t('broadcast:playlists.addMedia')}
            placeholder={t('broadcast:playlists.addMediaPlaceholder')}
            searchable
            searchValue={search}
            onSearchChange={setSearch}
            nothingFoundMessage={t('broadcast:playlists.noMedia')}
            data={options}
            value={null}
            onChange={add}
            error={errors.mediaIds}
            data-testid="playlist-media-select"
          />
          <Table withTableBorder fz="sm" data-testid="playlist-items">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={48}>{t('broadcast:playlists.order')}</Table.Th>
                <Table.Th>{t('broadcast:media.fields.materialName')}</Table.Th>
                <Table.Th ta="right">{t('broadcast:media.fields.duration')}</Table.Th>
                <Table.Th w={100} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.length === 0 && <TableEmptyRow colSpan={4}>{t('broadcast:playlists.noItems')}</TableEmptyRow>}
              {items.map((item, index) => (
                <Table.Tr key={item.mediaId} data-testid="playlist-item">
                  <Table.Td>{index + 1}</Table.Td>
                  <Table.Td data-testid="playlist-item-name">{item.materialName}</Table.Td>
                  <Table.Td ta="right">{formatDuration(item.duration)}</Table.Td>
                  <Table.Td>
                    <Group gap={2} justify="flex-end" wrap="nowrap">
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('broadcast:playlists.moveUp')}
                        title={t('broadcast:playlists.moveUp')}
                        disabled={index === 0}
                        onClick={() => setItems(moved(items, index, -1))}
                        data-testid="playlist-item-up"
                      >
                        <IconArrowUp size={16} />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('broadcast:playlists.moveDown')}
                        title={t('broadcast:playlists.moveDown')}
                        disabled={index === items.length - 1}
                        onClick={() => setItems(moved(items, index, 1))}
                      >
                        <IconArrowDown size={16} />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('broadcast:playlists.remove')}
                        title={t('broadcast:playlists.remove')}
                        onClick={() => setItems(items.filter((_, i) => i !== index))}
                      >
                        <IconX size={16} />
                      </ActionIcon>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Text size="sm" ta="right" data-testid="playlist-form-total">
            {`${t('broadcast:playlists.totalDuration')}: ${formatDuration(total)} · ${t('broadcast:playlists.itemCount', { count: items.length })}`}
          </Text>
          <FormActions onCancel={onClose} loading={save.isPending} testId="playlist-save" />
        </Stack>
      </form>
    </Modal>
  );
}
