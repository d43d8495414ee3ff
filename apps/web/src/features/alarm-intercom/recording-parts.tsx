import { useState, type MouseEvent, type ReactNode } from 'react';
import { ActionIcon, Button, Group, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { IconDownload, IconPlayerPlay } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { AlarmCallRecording, AlarmCallRow, PageResult } from '@sc/contracts';
import { formatBytes, formatDuration } from '@/features/broadcast/media-format';
import { downloadFileName, parseTime } from '@/utils/format';

/**
 * A recording's signed link lasts MEDIA_LINK_TTL_SECONDS (15 min by default) beyond the recording's length; a page read
 * longer ago than this reads its rows again before it plays or downloads one.
 */
const RECORDING_LINK_FRESH_MS = 10 * 60_000;

/** The file a recording downloads as: the call's start and its column, MP3. */
const recordingFileName = (call: AlarmCallRow) => downloadFileName(call.columnName, 'mp3', new Date(call.startedAt));

/** The page of calls the recordings come from: when it was read, and how to read it again. */
interface CallsRead {
  dataUpdatedAt: number;
  refetch: () => Promise<{ data?: PageResult<AlarmCallRow> }>;
}

/**
 * The recordings of a page of calls (the call log, audioInquiry): each row's cell (play, length, download) and the
 * player it opens. Links that may have expired (the page was read long ago) are read again before they play or
 * download. Test ids start with `testId`: `<testId>-play-<callId>`, `-download-<callId>`, `-seconds`, `-player`,
 * `-audio`, `-download`.
 */
export function useRecordingPlayer(calls: CallsRead, testId: string): { cell: (call: AlarmCallRow) => ReactNode; player: ReactNode } {
  const [playing, setPlaying] = useState<AlarmCallRow | null>(null);
  /** Whether the rows' recording links may have expired (the page was read long ago). */
  const linksOld = () => Date.now() - calls.dataUpdatedAt >= RECORDING_LINK_FRESH_MS;
  /** The row with a link still valid: as shown, or read again when the page is old. */
  const freshRow = async (call: AlarmCallRow): Promise<AlarmCallRow> => {
    if (!linksOld()) return call;
    const { data } = await calls.refetch();
    return data?.list.find((row) => row.id === call.id) ?? call;
  };
  /** Downloads through the row's link, read again first when it may have expired. */
  const onDownload = (call: AlarmCallRow, event: MouseEvent<HTMLAnchorElement>) => {
    if (!linksOld()) return;
    event.preventDefault();
    void freshRow(call).then((row) => {
      if (!row.recording) return;
      const link = document.createElement('a');
      link.href = row.recording.url;
      link.download = recordingFileName(row);
      link.click();
    });
  };
  return {
    cell: (call) =>
      call.recording ? (
        <RecordingCell
          call={call}
          recording={call.recording}
          onPlay={() => void freshRow(call).then(setPlaying)}
          onDownload={(event) => onDownload(call, event)}
          testId={testId}
        />
      ) : (
        '—'
      ),
    player: playing?.recording && <RecordingModal call={playing} recording={playing.recording} onClose={() => setPlaying(null)} testId={testId} />,
  };
}

/** A call's recording in its row: play (opens the player), its length, download (`onDownload` may take it over). */
function RecordingCell({
  call,
  recording,
  onPlay,
  onDownload,
  testId,
}: {
  call: AlarmCallRow;
  recording: AlarmCallRecording;
  onPlay: () => void;
  onDownload: (event: MouseEvent<HTMLAnchorElement>) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="nowrap">
      <Tooltip label={t('alarmIntercom:recording.play')}>
        <ActionIcon
          variant="light"
          size="sm"
          aria-label={t('alarmIntercom:recording.play')}
          onClick={onPlay}
          data-testid={`${testId}-play-${call.id}`}
        >
          <IconPlayerPlay size={14} />
        </ActionIcon>
      </Tooltip>
      <Text size="sm" ff="monospace" data-testid={`${testId}-seconds`} data-seconds={recording.seconds}>
        {formatDuration(recording.seconds)}
      </Text>
      <Tooltip label={t('alarmIntercom:recording.download')}>
        <ActionIcon
          component="a"
          href={recording.url}
          download={recordingFileName(call)}
          onClick={onDownload}
          variant="subtle"
          color="gray"
          size="sm"
          aria-label={t('alarmIntercom:recording.download')}
          data-testid={`${testId}-download-${call.id}`}
        >
          <IconDownload size={14} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

/** Plays a call's recording from its signed link, with its length and size, and a download link. */
function RecordingModal({
  call,
  recording,
  onClose,
  testId,
}: {
  call: AlarmCallRow;
  recording: AlarmCallRecording;
  onClose: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={onClose} title={t('alarmIntercom:recording.title', { name: call.columnName, time: parseTime(call.startedAt) })} size="lg">
      <Stack data-testid={`${testId}-player`} data-call={call.id}>
        <audio controls autoPlay preload="metadata" src={recording.url} style={{ width: '100%' }} data-testid={`${testId}-audio`}>
          {t('alarmIntercom:recording.noAudioSupport')}
        </audio>
        <Group justify="space-between" gap="xs">
          <Text size="sm">{`${t('alarmIntercom:recording.length')}: ${formatDuration(recording.seconds)} · ${formatBytes(recording.fileSize)}`}</Text>
          <Button
            component="a"
            href={recording.url}
            download={recordingFileName(call)}
            variant="light"
            size="xs"
            leftSection={<IconDownload size={14} />}
            data-testid={`${testId}-download`}
          >
            {t('alarmIntercom:recording.download')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
