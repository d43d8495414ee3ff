import { useState } from 'react';
import { Alert, Box, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  LED_MEDIA_NAME_FIELD,
  LED_MEDIA_NAME_MAX,
  LED_MEDIA_TYPES,
  LED_MEDIA_UPLOAD,
  MediaType,
  fitToScreen,
  resolutionMismatch,
  type LedMediaRow,
} from '@sc/contracts';
import { FileUploadDialog } from '@/components/file-upload-dialog';
import { Select } from '@/components/select';
import { useUploadBase } from '@/features/imports/api';
import { formatResolution } from '@/features/signage-materials/format';
import { useLedPage } from './api';
import { useLedMediaPreview, useUploadLedMedia } from './media-api';

const EXTENSIONS = LED_MEDIA_TYPES.flatMap((type) => LED_MEDIA_UPLOAD[type].extensions);

/** The console's own check of a chosen file (its name and size); the server checks again, by content. */
function fileProblem(t: (key: string, params?: Record<string, unknown>) => string, file: File | null): string | null {
  if (!file) return t('messages:chooseFile');
  const name = file.name.toLowerCase();
  const type = LED_MEDIA_TYPES.find((candidate) => LED_MEDIA_UPLOAD[candidate].extensions.some((extension) => name.endsWith(extension)));
  if (type === undefined) return t('led:media.wrongType');
  const { maxBytes } = LED_MEDIA_UPLOAD[type];
  if (file.size > maxBytes) return t('led:media.tooLarge', { maxMb: Math.round(maxBytes / (1024 * 1024)) });
  return null;
}

/** Upload: a picture or a video and an optional name, sent to the upload port with its progress. */
export function LedMediaUploadModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const send = useUploadLedMedia(useUploadBase());
  return (
    <FileUploadDialog
      title={t('led:media.uploadTitle')}
      file={{
        label: t('led:media.file'),
        placeholder: t('led:media.filePlaceholder'),
        hint: t('led:media.fileHint'),
        accept: EXTENSIONS.join(','),
        icon: <IconUpload size={16} />,
      }}
      name={{ label: t('led:media.fields.name'), hint: t('led:media.nameHint'), maxLength: LED_MEDIA_NAME_MAX, field: LED_MEDIA_NAME_FIELD }}
      problem={(file) => fileProblem(t, file)}
      send={send.mutateAsync}
      busy={send.isPending}
      done={t('led:media.uploaded')}
      progress={{ uploading: (percent) => t('led:media.uploading', { percent }), checking: t('led:media.checking') }}
      submitLabel={t('led:media.upload')}
      onClose={onClose}
      testId="led-media-upload"
    />
  );
}

/** The longest side of the fitted preview, in CSS pixels. */
const PREVIEW_BOX = 560;

/**
 * Shows or plays a medium. With a screen chosen it is shown as that screen shows it: the panel's proportions, the
 * medium fitted inside (black bars), and a warning when their resolutions differ.
 */
export function LedMediaPreviewModal({ media, onClose }: { media: LedMediaRow; onClose: () => void }) {
  const { t } = useTranslation();
  const link = useLedMediaPreview(media.id);
  const screens = useLedPage({ pageNum: 1, pageSize: 100 });
  const [screenId, setScreenId] = useState<string | null>(null);
  const screen = screens.data?.list.find((s) => String(s.id) === screenId) ?? null;
  const panel = screen ? { width: screen.width, height: screen.height } : { width: media.width, height: media.height };
  const scale = PREVIEW_BOX / Math.max(panel.width, panel.height);
  const fit = fitToScreen(media, panel);
  const url = link.data?.url;
  const style = {
    position: 'absolute',
    left: fit.left * scale,
    top: fit.top * scale,
    width: fit.width * scale,
    height: fit.height * scale,
  } as const;
  return (
    <Modal opened onClose={onClose} title={t('led:media.previewTitle', { name: media.name })} size="auto">
      <Stack data-testid="led-media-preview">
        <Select
          label={t('led:media.fitTo')}
          placeholder={t('led:media.fitToPlaceholder')}
          clearable
          searchable
          data={(screens.data?.list ?? []).map((s) => ({ value: String(s.id), label: `${s.name} (${formatResolution(s.width, s.height)})` }))}
          value={screenId}
          onChange={setScreenId}
          data-testid="led-media-fit-screen"
        />
        {screen && resolutionMismatch(media, screen) && (
          <Alert color="orange" icon={<IconAlertTriangle size={18} />} data-testid="led-media-mismatch">
            {t('led:media.mismatch', {
              media: formatResolution(media.width, media.height),
              screen: formatResolution(screen.width, screen.height),
            })}
          </Alert>
        )}
        <Box
          pos="relative"
          bg="black"
          w={panel.width * scale}
          h={panel.height * scale}
          data-testid="led-media-panel"
          data-width={panel.width}
          data-height={panel.height}
        >
          {url && media.type === MediaType.Picture && <img src={url} alt={media.name} style={style} data-testid="led-media-image" />}
          {url && media.type === MediaType.Video && (
            <video controls autoPlay muted preload="metadata" src={url} style={style} data-testid="led-media-video">
              {t('led:media.noVideoSupport')}
            </video>
          )}
        </Box>
        <Text size="sm" c="dimmed">
          {`${t('led:media.fields.resolution')}: ${formatResolution(media.width, media.height)}`}
        </Text>
      </Stack>
    </Modal>
  );
}
