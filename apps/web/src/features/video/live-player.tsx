import { Suspense, lazy, useEffect, useRef, useState, type ReactNode } from 'react';
import { ActionIcon, Box, Button, Center, Group, Loader, Stack, Text, Tooltip } from '@mantine/core';
import { IconCapture, IconRefresh, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { CameraLiveLinks } from '@sc/contracts';
import { fetchLiveLinks } from './api';
import { RENEW_RETRY_MS, renewDelayMs, withLatestSignature } from './live-links';

// The snapshot's dialog loads when it is first opened.
const SnapshotModal = lazy(() => import('./snapshot-modal').then((m) => ({ default: m.SnapshotModal })));

/** Where a player is: waiting for its first frame, showing it, stopped by an error, or in a browser without HLS. */
type Phase = 'loading' | 'playing' | 'failed' | 'unsupported';

/** The HLS type the browser's own player takes (Safari, iOS). */
const HLS_TYPE = 'application/vnd.apple.mpegurl';

/**
 * Plays a camera's live stream into `video`: hls.js (loaded as the first player starts, never with a page) where the
 * browser has Media Source Extensions, else the browser's own HLS, else 'unsupported'. The signed links are asked for
 * again at 80 % of their lifetime: hls.js asks for the playlist and its segments with the newest signature from then
 * on, the browser's own player is given the new playlist. Stopping (another camera, the cell cleared, the page left)
 * destroys the player, so the server can stop a stream nobody watches.
 */
function useLiveStream(
  videoRef: React.RefObject<HTMLVideoElement | null>,
  cameraId: number,
  attempt: number,
): { phase: Phase; snapshot: string | null; reason: string | null } {
  const [phase, setPhase] = useState<Phase>('loading');
  const [reason, setReason] = useState<string | null>(null);
  const [snapshot, setSnapshot] = useState<string | null>(null);
  useEffect(() => {
    const element = videoRef.current;
    if (!element) return;
    const video: HTMLVideoElement = element;
    let stopped = false;
    let mode: 'hls.js' | 'native' | null = null;
    let destroyPlayer: (() => void) | null = null;
    let timer: number | undefined;
    const controller = new AbortController();
    let playlist = '';
    setPhase('loading');
    setSnapshot(null);
    setReason(null);

    const failed = () => {
      if (stopped) return;
      window.clearTimeout(timer);
      setPhase('failed');
    };
    const shown = () => {
      if (!stopped) setPhase((current) => (current === 'loading' ? 'playing' : current));
    };
    const play = () => void video.play().catch(() => undefined);
    video.muted = true;
    video.addEventListener('playing', shown);
    video.addEventListener('loadeddata', shown);

    const adopt = (links: CameraLiveLinks) => {
      playlist = links.playlist;
      setSnapshot(links.snapshot);
      window.clearTimeout(timer);
      timer = window.setTimeout(renew, renewDelayMs(links.expiresIn));
    };
    function renew() {
      fetchLiveLinks(cameraId, { signal: controller.signal, silent: true }).then(
        (links) => {
          if (stopped) return;
          adopt(links);
          if (mode === 'native') {
            video.src = links.playlist;
            play();
          }
        },
        () => {
          if (!stopped) timer = window.setTimeout(renew, RENEW_RETRY_MS);
        },
      );
    }

    void (async () => {
      // The links are asked for while hls.js loads (the first player of a page waits for both).
      const asked = fetchLiveLinks(cameraId, { signal: controller.signal });
      asked.catch(() => undefined);
      let Hls: typeof import('hls.js').default;
      try {
        Hls = (await import('hls.js')).default;
      } catch {
        failed();
        return;
      }
      if (stopped) return;
      const withHlsJs = Hls.isSupported();
      if (!withHlsJs && !video.canPlayType(HLS_TYPE)) {
        setPhase('unsupported');
        return;
      }
      let links: CameraLiveLinks;
      try {
        links = await asked;
      } catch {
        // The server's refusal (no stream address, the stream would not start) is already on screen.
        failed();
        return;
      }
      if (stopped) return;
      adopt(links);
      if (withHlsJs) {
        mode = 'hls.js';
        const player = new Hls({
          liveDurationInfinity: true,
          backBufferLength: 10,
          // Start at the newest segment (hls.js keeps three back by default, waiting for them on a stream just started):
          // an operator wants the picture now, not smooth playback three seconds late.
          liveSyncDurationCount: 1,
          liveMaxLatencyDurationCount: 4,
          // Every request goes out with the newest signature (the links are renewed while the stream plays).
          xhrSetup: (xhr, url) => xhr.open('GET', withLatestSignature(url, playlist, window.location.href), true),
        });
        player.on(Hls.Events.MANIFEST_PARSED, play);
        player.on(Hls.Events.ERROR, (_event, data) => {
          if (!data.fatal) return;
          // The gateway's refusal, in the user's language ('Too many cameras are being watched at once', …).
          setReason(answerMessage(data.networkDetails));
          player.destroy();
          destroyPlayer = null;
          failed();
        });
        destroyPlayer = () => player.destroy();
        player.loadSource(links.playlist);
        player.attachMedia(video);
      } else {
        mode = 'native';
        video.addEventListener('error', failed);
        video.src = links.playlist;
        play();
      }
    })();

    return () => {
      stopped = true;
      controller.abort();
      window.clearTimeout(timer);
      destroyPlayer?.();
      video.removeEventListener('playing', shown);
      video.removeEventListener('loadeddata', shown);
      video.removeEventListener('error', failed);
      video.removeAttribute('src');
      video.load();
    };
  }, [videoRef, cameraId, attempt]);
  return { phase, snapshot, reason };
}

/** The message of the gateway's answer an hls.js request got (its envelope's), or null. */
function answerMessage(details: unknown): string | null {
  const text = (details as { responseText?: unknown } | null)?.responseText;
  if (typeof text !== 'string' || !text.startsWith('{')) return null;
  try {
    const message = (JSON.parse(text) as { message?: unknown }).message;
    return typeof message === 'string' && message !== '' ? message : null;
  } catch {
    return null;
  }
}

/**
 * A camera's live picture, muted: its name (and `status`, e.g. its online badge) over it, Snapshot (the JPEG of now,
 * to look at and download) and, with `onClose`, a close button. Loading until the first frame; on a fatal error of
 * the stream, Retry. The video element carries `data-camera-id`.
 */
export function LivePlayer({ camera, status, onClose }: { camera: { id: number; name: string }; status?: ReactNode; onClose?: () => void }) {
  const { t } = useTranslation();
  const videoRef = useRef<HTMLVideoElement>(null);
  const [attempt, setAttempt] = useState(0);
  const [snapshotOpen, setSnapshotOpen] = useState(false);
  const { phase, snapshot, reason } = useLiveStream(videoRef, camera.id, attempt);
  return (
    <Box pos="relative" bg="black" h="100%" style={{ overflow: 'hidden' }} data-testid="live-player" data-phase={phase}>
      <video
        ref={videoRef}
        muted
        autoPlay
        playsInline
        data-camera-id={camera.id}
        style={{ display: 'block', width: '100%', height: '100%', objectFit: 'contain' }}
      >
        {t('video:player.noVideoSupport')}
      </video>
      <Group
        pos="absolute"
        top={0}
        left={0}
        right={0}
        px="xs"
        py={4}
        gap="xs"
        justify="space-between"
        wrap="nowrap"
        style={{ background: 'linear-gradient(rgba(0, 0, 0, 0.65), rgba(0, 0, 0, 0))' }}
      >
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          <Text size="sm" c="white" fw={500} truncate title={camera.name} data-testid="live-player-name">
            {camera.name}
          </Text>
          {status}
        </Group>
        <Group gap={4} wrap="nowrap">
          {snapshot && phase === 'playing' && (
            <Tooltip label={t('video:player.snapshot')}>
              <ActionIcon
                variant="subtle"
                color="gray.0"
                onClick={() => setSnapshotOpen(true)}
                aria-label={t('video:player.snapshot')}
                data-testid="live-player-snapshot"
              >
                <IconCapture size={16} />
              </ActionIcon>
            </Tooltip>
          )}
          {onClose && (
            <Tooltip label={t('video:player.close')}>
              <ActionIcon variant="subtle" color="gray.0" onClick={onClose} aria-label={t('video:player.close')} data-testid="live-player-close">
                <IconX size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </Group>
      {phase !== 'playing' && (
        <Center pos="absolute" top={0} left={0} right={0} bottom={0} p="md" style={{ pointerEvents: 'none' }}>
          <Stack gap="xs" align="center" style={{ pointerEvents: 'auto' }}>
            {phase === 'loading' && (
              <>
                <Loader size="sm" color="gray.0" />
                <Text size="xs" c="gray.4" ta="center" lineClamp={2} data-testid="live-player-loading">
                  {t('video:player.loading')}
                </Text>
              </>
            )}
            {phase === 'failed' && (
              <>
                <Text size="sm" c="gray.3" ta="center" lineClamp={3} data-testid="live-player-failed">
                  {reason ?? t('video:player.failed')}
                </Text>
                <Button
                  size="xs"
                  variant="white"
                  leftSection={<IconRefresh size={14} />}
                  onClick={() => setAttempt((n) => n + 1)}
                  data-testid="live-player-retry"
                >
                  {t('video:player.retry')}
                </Button>
              </>
            )}
            {phase === 'unsupported' && (
              <Text size="sm" c="gray.3" ta="center" lineClamp={3} data-testid="live-player-unsupported">
                {t('video:player.noVideoSupport')}
              </Text>
            )}
          </Stack>
        </Center>
      )}
      <Suspense fallback={null}>
        {snapshotOpen && snapshot && <SnapshotModal url={snapshot} name={camera.name} onClose={() => setSnapshotOpen(false)} />}
      </Suspense>
    </Box>
  );
}
