import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Button, Center, Group, Image, Loader, Modal, Stack, Text } from '@mantine/core';
import { IconCamera } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { SCREENSHOT_RETRIES, SCREENSHOT_WAIT_MS, type SignageDeviceRow } from '@sc/contracts';
import { formatTime } from '@/utils/format';
import { useAskScreenshot, useLatestScreenshot } from './api';

/** How often the picture's age is written again (a clock, not a request). */
const AGE_TICK_MS = 10_000;
/** Asks in all: the first and SCREENSHOT_RETRIES more. */
const ATTEMPTS = 1 + SCREENSHOT_RETRIES;

type Phase = { kind: 'idle' } | { kind: 'waiting'; attempt: number; since: string | null } | { kind: 'failed' };

/**
 * A player's screenshot (spec section 8): asks the player as it opens and on demand, then waits for the row's
 * `lastScreenshotAt` to move (pushed live, no polling) up to SCREENSHOT_WAIT_MS, asking again up to SCREENSHOT_RETRIES
 * times before 'Failed to fetch screenshot'. Shows the latest picture with its age (section 9's relative time).
 * `device` is the live row, so its `lastScreenshotAt` follows the player.
 */
export function SignageScreenshotModal({ device, onClose }: { device: SignageDeviceRow; onClose: () => void }) {
  const { t } = useTranslation();
  const ask = useAskScreenshot();
  const latest = useLatestScreenshot(device.id, device.lastScreenshotAt);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [, setTick] = useState(0);
  const timer = useRef<number | undefined>(undefined);
  const lastAt = useRef(device.lastScreenshotAt);
  lastAt.current = device.lastScreenshotAt;

  const attempt = useCallback(
    (n: number, since: string | null) => {
      setPhase({ kind: 'waiting', attempt: n, since });
      window.clearTimeout(timer.current);
      ask.mutate([device.id]);
      timer.current = window.setTimeout(() => {
        if (n < ATTEMPTS) attempt(n + 1, since);
        else setPhase({ kind: 'failed' });
      }, SCREENSHOT_WAIT_MS);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one request function for the modal's lifetime
    [device.id],
  );
  const take = useCallback(() => attempt(1, lastAt.current), [attempt]);

  // Asked once as the viewer opens; nothing runs on after it closes.
  useEffect(() => {
    take();
    return () => window.clearTimeout(timer.current);
  }, [take]);
  // The picture came in: the row's lastScreenshotAt moved.
  useEffect(() => {
    if (phase.kind === 'waiting' && device.lastScreenshotAt !== phase.since) {
      window.clearTimeout(timer.current);
      setPhase({ kind: 'idle' });
    }
  }, [device.lastScreenshotAt, phase]);
  useEffect(() => {
    const tick = window.setInterval(() => setTick((n) => n + 1), AGE_TICK_MS);
    return () => window.clearInterval(tick);
  }, []);

  const shot = latest.data ?? null;
  return (
    <Modal opened onClose={onClose} title={t('signage:screenshot.title', { name: device.name })} size="lg" data-testid="signage-screenshot-modal">
      <Stack gap="sm">
        {phase.kind === 'waiting' && (
          <Group gap="xs" data-testid="signage-screenshot-waiting">
            <Loader size="xs" />
            <Text size="sm" c="dimmed">
              {t('signage:screenshot.waiting', { attempt: phase.attempt, max: ATTEMPTS })}
            </Text>
          </Group>
        )}
        {phase.kind === 'failed' && (
          <Alert color="red" data-testid="signage-screenshot-failed">
            {t('signage:screenshot.failed')}
          </Alert>
        )}
        {shot ? (
          <>
            <Center bg="dark.7" style={{ borderRadius: 4 }}>
              <Image
                src={shot.url}
                alt={t('signage:screenshot.alt', { name: device.name })}
                fit="contain"
                mah={480}
                w="auto"
                data-testid="signage-screenshot-image"
              />
            </Center>
            <Text size="sm" c="dimmed" data-testid="signage-screenshot-age">
              {t('signage:screenshot.taken', { age: formatTime(shot.receivedAt) })} · {shot.width}×{shot.height}
            </Text>
          </>
        ) : (
          !latest.isLoading &&
          phase.kind !== 'waiting' && (
            <Text size="sm" c="dimmed" data-testid="signage-screenshot-none">
              {t('signage:screenshot.none')}
            </Text>
          )
        )}
        <Group justify="flex-end">
          <Button leftSection={<IconCamera size={16} />} onClick={take} loading={phase.kind === 'waiting'} data-testid="signage-screenshot-take">
            {t('signage:screenshot.take')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
