import { useEffect, useState } from 'react';
import { Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PLAYLIST_NAME_MAX, PlaybackMode, type PlaylistRow } from '@sc/contracts';
import { FormActions, saveAndClose } from '@/components/form-actions';
import { useIsMobile } from '@/layout/use-is-mobile';
import { usePlaylist, useSavePlaylist } from './media-api';
import { formatDuration } from './media-format';
import { OrderedMediaList, PlaybackModeSelect, totalDuration, type OrderedMedium } from './ordered-media-list';

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
  const [items, setItems] = useState<OrderedMedium[]>([]);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});

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

  return (
    <Modal opened={opened} onClose={onClose} title={t(playlist ? 'broadcastPlaylists:edit' : 'broadcastPlaylists:add')} size="lg" fullScreen={mobile}>
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
              label={t('broadcastPlaylists:name')}
              required
              maxLength={PLAYLIST_NAME_MAX}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={errors.name}
              data-testid="playlist-name"
            />
            <PlaybackModeSelect value={mode} onChange={setMode} testId="playlist-mode" />
          </Group>
          <OrderedMediaList
            items={items}
            onChange={setItems}
            error={errors.mediaIds}
            onError={(mediaIds) => setErrors({ ...errors, mediaIds })}
            enabled={opened}
            testId="playlist"
          />
          <Text size="sm" ta="right" data-testid="playlist-form-total">
            {`${t('broadcastPlaylists:totalDuration')}: ${formatDuration(totalDuration(items))} · ${t('broadcastPlaylists:itemCount', { count: items.length })}`}
          </Text>
          <FormActions onCancel={onClose} loading={save.isPending} testId="playlist-save" />
        </Stack>
      </form>
    </Modal>
  );
}
