import { useState } from 'react';
import { Button, Grid, Group, Paper, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconSpeakerphone } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  NUMBER_BOUNDS,
  PAGE_SIZE_MAX,
  PlaybackMode,
  TASK_NAME_MAX,
  TASK_PRIORITY,
  type ImmediateBroadcastRequest,
  type TerminalSelection,
} from '@sc/contracts';
import { fieldErrors } from '@/api/field-errors';
import { areaPathLabel, useAreaTree } from '@/components/area-cascader';
import { BoundedNumberInput, numberFieldError } from '@/components/bounded-number-input';
import { confirmCommand } from '@/components/confirm';
import { notifySuccess } from '@/components/notify';
import { Select } from '@/components/select';
import { devicesInRegion } from '@/features/dispatch/api';
import { currentLanguage } from '@/i18n';
import { TERMINAL_PAGE_PATH } from './api';
import { usePlaylistPage } from './media-api';
import { formatDuration } from './media-format';
import { OrderedMediaList, PlaybackModeSelect, totalDuration, type OrderedMedium } from './ordered-media-list';
import { useImmediateBroadcast } from './tasks-api';
import { NO_TARGET, TerminalTargetField, targetSelection, type TerminalTarget } from './terminal-target-field';

type Source = 'playlist' | 'media';
type Errors = Partial<Record<string, string>>;

/** 'Broadcast "…" now on …?': how many terminals (a region's counted just before asking) or groups it goes to. */
async function confirmBroadcast(
  t: ReturnType<typeof useTranslation>['t'],
  name: string,
  to: TerminalSelection,
  tree: Parameters<typeof areaPathLabel>[0],
): Promise<boolean> {
  let detail: string;
  if (to.ids) detail = t('broadcastTasks:immediate.confirmTerminals', { name, count: to.ids.length });
  else if (to.groupIds) detail = t('broadcastTasks:immediate.confirmGroups', { name, count: to.groupIds.length });
  else {
    const count = await devicesInRegion(TERMINAL_PAGE_PATH, to.regionId!).catch(() => null);
    if (count === null) return false;
    detail = t('broadcastTasks:immediate.confirmRegion', { name, region: areaPathLabel(tree, to.regionId!, currentLanguage()), count });
  }
  return confirmCommand(detail, { confirm: t('broadcastTasks:immediate.send'), testId: 'immediate-confirm' });
}

/**
 * A broadcast now: a playlist (in its own mode) or approved media in an order and a mode, a priority (1 first), a
 * volume, and the terminals, a region or groups it goes to. What the server refuses stands under its field; the
 * dispatch that delivers it is then followed beside.
 */
export function ImmediateBroadcastForm({ onDispatched }: { onDispatched: (dispatchId: string) => void }) {
  const { t } = useTranslation();
  const send = useImmediateBroadcast();
  const { tree } = useAreaTree();
  const [taskName, setTaskName] = useState('');
  const [source, setSource] = useState<Source>('media');
  const [playlistId, setPlaylistId] = useState<number | null>(null);
  const [playlistSearch, setPlaylistSearch] = useState('');
  const [items, setItems] = useState<OrderedMedium[]>([]);
  const [mode, setMode] = useState<PlaybackMode>(PlaybackMode.Normal);
  const [priority, setPriority] = useState<number | string>(5);
  const [volume, setVolume] = useState<number | string>('');
  const [target, setTarget] = useState<TerminalTarget>(NO_TARGET);
  const [errors, setErrors] = useState<Errors>({});
  const playlists = usePlaylistPage({ pageNum: 1, pageSize: PAGE_SIZE_MAX, name: playlistSearch.trim() || undefined });
  const playlist = playlists.data?.list.find((p) => p.id === playlistId);

  const submit = async () => {
    const to = targetSelection(target);
    const problems: Errors = {
      taskName: taskName.trim() ? undefined : t('messages:nameEmpty'),
      playlistId: source === 'playlist' && playlistId === null ? t('messages:pleaseSelect') : undefined,
      mediaIds: source === 'media' && items.length === 0 ? t('messages:pleaseSelect') : undefined,
      priority: numberFieldError(t, priority, TASK_PRIORITY, true) ?? undefined,
      volume: volume === '' ? t('messages:volumeEmpty') : (numberFieldError(t, volume, NUMBER_BOUNDS.volume) ?? undefined),
      target: to ? undefined : t('messages:terminalSelectionEmpty'),
    };
    setErrors(problems);
    if (Object.values(problems).some(Boolean) || !to) return;
    const name = taskName.trim();
    if (!(await confirmBroadcast(t, name, to, tree))) return;
    const body: ImmediateBroadcastRequest = {
      taskName: name,
      ...(source === 'playlist' ? { playlistId: playlistId! } : { mediaIds: items.map((i) => i.mediaId), playbackMode: mode }),
      ...to,
      priority: Number(priority),
      volume: Number(volume),
    };
    try {
      const { dispatchId } = await send.mutateAsync(body);
      notifySuccess(t('messages:instructionSent'));
      onDispatched(dispatchId);
    } catch (error) {
      // The toast says it; each field's own message stands under it.
      setErrors(fieldErrors(error));
    }
  };

  return (
    <Paper withBorder p="md" radius="md" data-testid="immediate-form">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <Title order={5}>{t('broadcastTasks:immediate.newTitle')}</Title>
          <Grid gap="md">
            <Grid.Col span={{ base: 12, lg: 6 }}>
              <Stack gap="sm">
                <TextInput
                  label={t('broadcastTasks:immediate.taskName')}
                  required
                  maxLength={TASK_NAME_MAX}
                  value={taskName}
                  onChange={(e) => setTaskName(e.currentTarget.value)}
                  error={errors.taskName}
                  name="taskName"
                  data-testid="immediate-name"
                />
                <SegmentedControl
                  value={source}
                  onChange={(value) => setSource(value as Source)}
                  aria-label={t('broadcastTasks:immediate.source')}
                  data={[
                    { value: 'media', label: t('broadcastTasks:immediate.fromMedia') },
                    { value: 'playlist', label: t('broadcastTasks:immediate.fromPlaylist') },
                  ]}
                  data-testid="immediate-source"
                />
                {source === 'playlist' ? (
                  <Select
                    label={t('broadcastTasks:immediate.playlist')}
                    placeholder={t('broadcastTasks:immediate.playlistPlaceholder')}
                    required
                    searchable
                    searchValue={playlistSearch}
                    onSearchChange={setPlaylistSearch}
                    nothingFoundMessage={t('broadcastTasks:immediate.noPlaylists')}
                    data={(playlists.data?.list ?? []).map((p) => ({ value: String(p.id), label: `${p.name} (${formatDuration(p.totalDuration)})` }))}
                    value={playlistId === null ? null : String(playlistId)}
                    onChange={(id) => setPlaylistId(id === null ? null : Number(id))}
                    error={errors.playlistId}
                    description={
                      playlist && t('broadcastTasks:immediate.playlistMode', { mode: t(`broadcastPlaylists:modes.${playlist.playbackMode}`) })
                    }
                    data-testid="immediate-playlist"
                  />
                ) : (
                  <>
                    <OrderedMediaList
                      items={items}
                      onChange={setItems}
                      error={errors.mediaIds}
                      onError={(mediaIds) => setErrors({ ...errors, mediaIds })}
                      testId="immediate"
                    />
                    <Group justify="space-between" align="flex-end">
                      <PlaybackModeSelect value={mode} onChange={setMode} testId="immediate-mode" />
                      <Text size="sm" c="dimmed">
                        {`${t('broadcastPlaylists:totalDuration')}: ${formatDuration(totalDuration(items))}`}
                      </Text>
                    </Group>
                  </>
                )}
              </Stack>
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 6 }}>
              <Stack gap="sm">
                <Group grow align="flex-start">
                  <BoundedNumberInput
                    bounds={TASK_PRIORITY}
                    label={t('broadcastTasks:immediate.priority')}
                    required
                    value={priority}
                    onChange={setPriority}
                    error={errors.priority}
                    name="priority"
                    data-testid="immediate-priority"
                  />
                  <BoundedNumberInput
                    bounds={NUMBER_BOUNDS.volume}
                    label={t('broadcastTasks:immediate.volume')}
                    required
                    value={volume}
                    onChange={setVolume}
                    error={errors.volume}
                    name="volume"
                    suffix=" %"
                    data-testid="immediate-volume"
                  />
                </Group>
                <Text size="xs" c="dimmed" mt={-6}>
                  {t('broadcastTasks:immediate.priorityHint')}
                </Text>
                <TerminalTargetField value={target} onChange={setTarget} errors={errors} error={errors.target} testId="immediate-target" />
              </Stack>
            </Grid.Col>
          </Grid>
          <Group justify="flex-end">
            <Button type="submit" leftSection={<IconSpeakerphone size={16} />} loading={send.isPending} data-testid="immediate-send">
              {t('broadcastTasks:immediate.send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
