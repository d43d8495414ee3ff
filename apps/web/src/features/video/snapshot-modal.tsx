import { useEffect, useState } from 'react';
import { Alert, Button, Center, Group, Image, Loader, Modal, Stack } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { jsonMessage } from '@/api/download';
import { downloadFileName } from '@/utils/format';

type Shot = { kind: 'loading' } | { kind: 'shown'; objectUrl: string; takenAt: Date } | { kind: 'failed'; message: string };

/**
 * The picture a camera shows now (its snapshot link, a JPEG): read once as the dialog opens, shown, and downloadable
 * as that very picture, named by the time it was taken and the camera's name (spec section 8's downloads).
 */
export function SnapshotModal({ url, name, onClose }: { url: string; name: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [shot, setShot] = useState<Shot>({ kind: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    let objectUrl: string | null = null;
    void (async () => {
      try {
        const response = await fetch(url, { signal: controller.signal, credentials: 'omit', cache: 'no-store' });
        const blob = await response.blob();
        // A refusal answers with the usual envelope, not a picture.
        const refusal = await jsonMessage(blob);
        if (refusal !== null || !response.ok || !blob.type.startsWith('image/')) {
          setShot({ kind: 'failed', message: refusal || t('video:player.snapshotFailed') });
          return;
        }
        objectUrl = URL.createObjectURL(blob);
        setShot({ kind: 'shown', objectUrl, takenAt: new Date() });
      } catch {
        if (!controller.signal.aborted) setShot({ kind: 'failed', message: t('video:player.snapshotFailed') });
      }
    })();
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url, t]);

  return (
    <Modal opened onClose={onClose} title={t('video:player.snapshotTitle', { name })} size="xl" data-testid="video-snapshot-modal">
      <Stack gap="sm">
        {shot.kind === 'loading' && (
          <Center mih={200}>
            <Loader />
          </Center>
        )}
        {shot.kind === 'failed' && (
          <Alert color="red" data-testid="video-snapshot-failed">
            {shot.message}
          </Alert>
        )}
        {shot.kind === 'shown' && (
          <>
            <Center bg="dark.7" style={{ borderRadius: 4 }}>
              <Image
                src={shot.objectUrl}
                alt={t('video:player.snapshotTitle', { name })}
                fit="contain"
                mah="70vh"
                w="auto"
                data-testid="video-snapshot-image"
              />
            </Center>
            <Group justify="flex-end">
              <Button
                component="a"
                href={shot.objectUrl}
                download={downloadFileName(name, 'jpg', shot.takenAt)}
                leftSection={<IconDownload size={16} />}
                data-testid="video-snapshot-download"
              >
                {t('video:player.download')}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Modal>
  );
}
