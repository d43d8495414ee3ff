import { useState } from 'react';
import { Button, Grid, Group, Paper, SegmentedControl, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconPlayerStop, IconSpeakerphone, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  ALARM_ANNOUNCE_ITEMS_MAX,
  ALARM_ANNOUNCE_TEXT_MAX,
  BroadcastContentType,
  Button as ButtonPermission,
  DeviceFamily,
  PlaybackMode,
  type AlarmAnnounceRequest,
  type AlarmColumnSelection,
  type MediaRow,
} from '@sc/contracts';
import { fieldErrors } from '@/api/field-errors';
import { useButton, useSession } from '@/auth/session-store';
import { AreaCascader, areaPathLabel, useAreaTree } from '@/components/area-cascader';
import { Deferred, lazyComponent } from '@/components/deferred';
import { notifySuccess } from '@/components/notify';
import { SearchPickSelect, usePickSearch, type PickedItem } from '@/components/search-pick-select';
import { describeAlarmDispatch } from '@/features/alarm-columns/alarm-dispatch';
import { ALARM_COLUMN_PAGE_PATH, useAlarmAnnouncements, useAlarmColumnPage } from '@/features/alarm-columns/api';
import { formatDuration } from '@/features/broadcast/media-format';
import { OrderedMediaList, PlaybackModeSelect, totalDuration, type OrderedMedium } from '@/features/broadcast/ordered-media-list';
import { confirmTargetCommand } from '@/features/dispatch/confirm-target';
import { DispatchPanel } from '@/features/dispatch/dispatch-panel';
import { currentLanguage } from '@/i18n';

// The library's upload (and, for an administrator, its audit of the new file) load when first opened.
const MediaUploadModal = lazyComponent(() => import('@/features/broadcast/media-dialogs'), 'MediaUploadModal');
const MediaAuditModal = lazyComponent(() => import('@/features/broadcast/media-dialogs'), 'MediaAuditModal');

type TargetMode = 'columns' | 'region';
type Errors = Partial<Record<string, string>>;
type Dialog = { kind: 'upload' } | { kind: 'audit'; medium: MediaRow } | null;

/** The columns the operator may search through at once (the chosen ones stay listed whatever is searched next). */
const COLUMN_SEARCH_PAGE = 50;

/**
 * An announcement on the alarm columns' speakers (Edit button): the chosen columns or every column of a region, audio
 * (approved media of the broadcast library, in order, with an MP3 upload into the library) or a text the columns say,
 * and a playback mode; Announce and Stop announcement, each confirmed with the number of columns it reaches, then
 * followed live in the dispatch panel beside. What the server refuses stands under its field.
 */
export function AnnounceView({ dispatchId, onDispatched }: { dispatchId: string | null; onDispatched: (dispatchId: string) => void }) {
  const { t } = useTranslation();
  const { tree } = useAreaTree();
  const commands = useAlarmAnnouncements();
  const mayUpload = useButton(ButtonPermission.Add);
  const mayAudit = useSession((s) => s.isAdmin);
  const [mode, setMode] = useState<TargetMode>('columns');
  const [columns, setColumns] = useState<PickedItem[]>([]);
  const [regionId, setRegionId] = useState<number | null>(null);
  const { search, setSearch, query } = usePickSearch();
  const found = useAlarmColumnPage({ pageNum: 1, pageSize: COLUMN_SEARCH_PAGE, name: query });
  const [contentType, setContentType] = useState<BroadcastContentType>(BroadcastContentType.Audio);
  const [items, setItems] = useState<OrderedMedium[]>([]);
  const [text, setText] = useState('');
  const [playbackMode, setPlaybackMode] = useState<PlaybackMode>(PlaybackMode.Normal);
  const [errors, setErrors] = useState<Errors>({});
  const [dialog, setDialog] = useState<Dialog>(null);
  const audio = contentType === BroadcastContentType.Audio;

  /** The columns or the region picked; null (said under the field) when nothing is. */
  const target = (): AlarmColumnSelection | null => {
    if (mode === 'columns' ? columns.length > 0 : regionId !== null)
      return mode === 'columns' ? { ids: columns.map((c) => c.id) } : { regionId: regionId! };
    return null;
  };
  /** Asks before the command leaves, with the number of columns it reaches (a region's counted just before asking). */
  const confirmFor = (to: AlarmColumnSelection, stop: boolean) => {
    const region = areaPathLabel(tree, to.regionId, currentLanguage());
    return confirmTargetCommand(to.ids ? { ids: to.ids } : { regionId: to.regionId! }, {
      listPath: ALARM_COLUMN_PAGE_PATH,
      devices: (count) => (stop ? t('alarmIntercom:announce.stopColumns', { count }) : t('alarmIntercom:announce.confirmColumns', { count })),
      region: (count) =>
        stop ? t('alarmIntercom:announce.stopRegion', { count, region }) : t('alarmIntercom:announce.confirmRegion', { count, region }),
      confirm: stop ? t('alarmIntercom:announce.stop') : t('alarmIntercom:announce.send'),
      testId: stop ? 'announce-stop-confirm' : 'announce-send-confirm',
    });
  };
  const dispatched = (dispatchId: string) => {
    notifySuccess(t('messages:instructionSent'));
    onDispatched(dispatchId);
  };

  const announce = async () => {
    const to = target();
    const problems: Errors = {
      target: to ? undefined : t('alarmIntercom:announce.noTarget'),
      mediaIds: audio && items.length === 0 ? t('alarmIntercom:announce.mediaEmpty') : undefined,
      text: !audio && !text.trim() ? t('alarmIntercom:announce.textEmpty') : undefined,
    };
    setErrors(problems);
    if (Object.values(problems).some(Boolean) || !to || !(await confirmFor(to, false))) return;
    const body: AlarmAnnounceRequest = {
      ...to,
      contentType,
      ...(audio ? { mediaIds: items.map((i) => i.mediaId) } : { text: text.trim() }),
      playbackMode,
    };
    try {
      dispatched((await commands.announce.mutateAsync(body)).dispatchId);
    } catch (error) {
      // The toast says it; each field's own message stands under it.
      setErrors(fieldErrors(error));
    }
  };
  const stop = async () => {
    const to = target();
    setErrors({ target: to ? undefined : t('alarmIntercom:announce.noTarget') });
    if (!to || !(await confirmFor(to, true))) return;
    try {
      dispatched((await commands.stop.mutateAsync(to)).dispatchId);
    } catch (error) {
      setErrors(fieldErrors(error));
    }
  };
  const targetError = errors.target ?? errors.ids ?? errors.regionId;

  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, xl: 8 }}>
        <Paper withBorder p="md" radius="md" data-testid="announce-form">
          <form
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void announce();
            }}
          >
            <Stack gap="sm">
              <Title order={5}>{t('alarmIntercom:announce.title')}</Title>
              <SegmentedControl
                value={mode}
                onChange={(value) => setMode(value as TargetMode)}
                data={[
                  { value: 'columns', label: t('alarmIntercom:announce.byColumns') },
                  { value: 'region', label: t('alarmIntercom:announce.byRegion') },
                ]}
                aria-label={t('alarmIntercom:announce.target')}
                data-testid="announce-target"
              />
              {mode === 'columns' ? (
                <SearchPickSelect
                  label={t('alarmIntercom:announce.columns')}
                  placeholder={t('alarmIntercom:announce.columnsPlaceholder')}
                  nothingFoundMessage={t('alarmIntercom:announce.noColumns')}
                  search={search}
                  onSearchChange={setSearch}
                  found={(found.data?.list ?? []).map((c) => ({ id: c.id, label: `${c.name} (${c.sipAccount || c.code})` }))}
                  value={columns}
                  onChange={setColumns}
                  error={targetError}
                  data-testid="announce-columns"
                />
              ) : (
                <AreaCascader
                  label={t('alarmIntercom:announce.region')}
                  description={t('alarmIntercom:announce.regionHint')}
                  value={regionId}
                  onChange={setRegionId}
                  error={targetError}
                  width="100%"
                  data-testid="announce-region"
                />
              )}
              <SegmentedControl
                value={String(contentType)}
                onChange={(value) => setContentType(Number(value) as BroadcastContentType)}
                data={[
                  { value: String(BroadcastContentType.Audio), label: t('alarmIntercom:announce.audio') },
                  { value: String(BroadcastContentType.Text), label: t('alarmIntercom:announce.text') },
                ]}
                aria-label={t('alarmIntercom:announce.contentType')}
                data-testid="announce-content-type"
              />
              {audio ? (
                <Stack gap="xs" data-testid="announce-media">
                  <OrderedMediaList
                    items={items}
                    onChange={setItems}
                    error={errors.mediaIds}
                    onError={(mediaIds) => setErrors({ ...errors, mediaIds })}
                    max={ALARM_ANNOUNCE_ITEMS_MAX}
                    tooMany={t('alarmIntercom:announce.tooManyMedia', { max: ALARM_ANNOUNCE_ITEMS_MAX })}
                    testId="announce"
                  />
                  <Group justify="space-between" align="flex-start" wrap="nowrap">
                    <Text size="sm" c="dimmed" data-testid="announce-total">
                      {`${t('broadcastPlaylists:totalDuration')}: ${formatDuration(totalDuration(items))} · ${t('broadcastPlaylists:itemCount', { count: items.length })}`}
                    </Text>
                    {mayUpload && (
                      <Button
                        variant="light"
                        size="xs"
                        leftSection={<IconUpload size={14} />}
                        onClick={() => setDialog({ kind: 'upload' })}
                        data-testid="announce-upload"
                      >
                        {t('alarmIntercom:announce.upload')}
                      </Button>
                    )}
                  </Group>
                  {mayUpload && (
                    <Text size="xs" c="dimmed">
                      {t('alarmIntercom:announce.uploadHint')}
                    </Text>
                  )}
                </Stack>
              ) : (
                <Stack gap={4}>
                  <Textarea
                    label={t('alarmIntercom:announce.textLabel')}
                    placeholder={t('alarmIntercom:announce.textPlaceholder')}
                    required
                    autosize
                    minRows={3}
                    maxRows={8}
                    maxLength={ALARM_ANNOUNCE_TEXT_MAX}
                    value={text}
                    onChange={(e) => setText(e.currentTarget.value)}
                    error={errors.text}
                    name="text"
                    data-testid="announce-text"
                  />
                  <Text size="xs" c={text.length >= ALARM_ANNOUNCE_TEXT_MAX ? 'orange' : 'dimmed'} ta="right" data-testid="announce-text-count">
                    {t('alarmIntercom:announce.textCount', { length: text.length, max: ALARM_ANNOUNCE_TEXT_MAX })}
                  </Text>
                </Stack>
              )}
              <PlaybackModeSelect value={playbackMode} onChange={setPlaybackMode} testId="announce-mode" />
              <Group justify="flex-end" gap="xs">
                <Button
                  variant="light"
                  color="red"
                  leftSection={<IconPlayerStop size={16} />}
                  onClick={() => void stop()}
                  loading={commands.stop.isPending}
                  data-testid="announce-stop"
                >
                  {t('alarmIntercom:announce.stop')}
                </Button>
                <Button type="submit" leftSection={<IconSpeakerphone size={16} />} loading={commands.announce.isPending} data-testid="announce-send">
                  {t('alarmIntercom:announce.send')}
                </Button>
              </Group>
            </Stack>
          </form>
        </Paper>
      </Grid.Col>
      <Grid.Col span={{ base: 12, xl: 4 }}>
        <DispatchPanel family={DeviceFamily.Alarm} dispatchId={dispatchId} describe={describeAlarmDispatch} />
      </Grid.Col>
      <Deferred when={dialog !== null}>
        {dialog?.kind === 'upload' && (
          <MediaUploadModal
            // The upload closes its own dialog once done: the audit that may have opened meanwhile stays.
            onClose={() => setDialog((open) => (open?.kind === 'upload' ? null : open))}
            onUploaded={(medium) => {
              if (mayAudit) setDialog({ kind: 'audit', medium });
            }}
          />
        )}
        {dialog?.kind === 'audit' && <MediaAuditModal medium={dialog.medium} onClose={() => setDialog(null)} />}
      </Deferred>
    </Grid>
  );
}
