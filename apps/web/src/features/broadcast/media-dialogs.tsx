import { useState } from 'react';
import { Group, Modal, SegmentedControl, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { IconFileMusic } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  LIMITS,
  MEDIA_AUDIT_REMARK_MAX,
  MEDIA_NAME_FIELD,
  MEDIA_NAME_MAX,
  MEDIA_UPLOAD_EXTENSIONS,
  MediaAuditStatus,
  type MediaRow,
} from '@sc/contracts';
import { FormDialog, saveAndClose } from '@/components/form-actions';
import { FileUploadDialog } from '@/components/file-upload-dialog';
import { useUploadBase } from '@/features/imports/api';
import { useAuditMedia, useMediaPreview, useRenameMedia, useUploadMedia } from './media-api';
import { formatDuration } from './media-format';

/** The console's own check of a chosen file, with the spec's limits; the server checks again, by content. */
export function mediaFileProblem(file: File | null): string | null {
  if (!file) return 'messages:chooseFile';
  const name = file.name.toLowerCase();
  if (!MEDIA_UPLOAD_EXTENSIONS.some((extension) => name.endsWith(extension))) return 'messages:onlyMp3';
  if (file.size > LIMITS.audioMaxBytes) return 'messages:fileTooLarge50mb';
  return null;
}

/**
 * Upload: an MP3 and an optional name, sent to the upload port with its progress; the server's refusal stays on screen.
 * `onUploaded` hears the new medium (pending its audit), as pages beside the library take it further.
 */
export function MediaUploadModal({ onClose, onUploaded }: { onClose: () => void; onUploaded?: (medium: MediaRow) => void }) {
  const { t } = useTranslation();
  const send = useUploadMedia(useUploadBase());
  return (
    <FileUploadDialog
      title={t('broadcastMedia:uploadTitle')}
      file={{
        label: t('broadcastMedia:file'),
        placeholder: t('broadcastMedia:filePlaceholder'),
        hint: t('broadcastMedia:fileHint'),
        accept: `${MEDIA_UPLOAD_EXTENSIONS.join(',')},audio/mpeg`,
        icon: <IconFileMusic size={16} />,
      }}
      name={{
        label: t('broadcastMedia:fields.materialName'),
        hint: t('broadcastMedia:nameHint'),
        maxLength: MEDIA_NAME_MAX,
        field: MEDIA_NAME_FIELD,
      }}
      problem={(file) => {
        const problem = mediaFileProblem(file);
        return problem && t(problem);
      }}
      send={async (upload) => {
        // Uploaded first: an optional call's arguments are not evaluated when there is nobody to call.
        const medium = await send.mutateAsync(upload);
        onUploaded?.(medium);
      }}
      busy={send.isPending}
      done={t('broadcastMedia:uploaded')}
      progress={{ uploading: (percent) => t('broadcastMedia:uploading', { percent }), checking: t('broadcastMedia:checking') }}
      submitLabel={t('broadcastMedia:upload')}
      onClose={onClose}
      testId="media-upload"
    />
  );
}

export function MediaRenameModal({ medium, onClose }: { medium: MediaRow; onClose: () => void }) {
  const { t } = useTranslation();
  const rename = useRenameMedia();
  const [name, setName] = useState(medium.materialName);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const submit = async () => {
    if (!name.trim()) return setErrors({ materialName: t('messages:nameEmpty') });
    await saveAndClose(() => rename.mutateAsync({ id: medium.id, materialName: name.trim() }), { updated: true, close: onClose, setErrors });
  };
  return (
    <FormDialog
      opened
      onClose={onClose}
      title={t('broadcastMedia:rename')}
      onSubmit={submit}
      busy={rename.isPending}
      testId="media-rename-form"
      submitTestId="media-rename-save"
    >
      <TextInput
        label={t('broadcastMedia:fields.materialName')}
        required
        maxLength={MEDIA_NAME_MAX}
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={errors.materialName}
        data-autofocus
      />
    </FormDialog>
  );
}

/** An administrator's audit: approve, or reject with a reason. */
export function MediaAuditModal({ medium, onClose }: { medium: MediaRow; onClose: () => void }) {
  const { t } = useTranslation();
  const audit = useAuditMedia();
  const [decision, setDecision] = useState<MediaAuditStatus.Approved | MediaAuditStatus.Rejected>(
    medium.auditStatus === MediaAuditStatus.Rejected ? MediaAuditStatus.Rejected : MediaAuditStatus.Approved,
  );
  const [remark, setRemark] = useState(medium.auditRemark);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const submit = () =>
    saveAndClose(() => audit.mutateAsync({ id: medium.id, auditStatus: decision, auditRemark: remark.trim() }), {
      updated: true,
      close: onClose,
      setErrors,
    });
  return (
    <FormDialog
      opened
      onClose={onClose}
      title={t('broadcastMedia:auditTitle', { name: medium.materialName })}
      onSubmit={submit}
      busy={audit.isPending}
      testId="media-audit-form"
      submitTestId="media-audit-save"
    >
      <Text size="sm" c="dimmed">
        {t('broadcastMedia:auditHint')}
      </Text>
      <SegmentedControl
        value={decision}
        onChange={(value) => setDecision(value as typeof decision)}
        data={[
          { value: MediaAuditStatus.Approved, label: t('broadcastMedia:approve') },
          { value: MediaAuditStatus.Rejected, label: t('broadcastMedia:reject') },
        ]}
        data-testid="media-audit-decision"
      />
      <Textarea
        label={t('broadcastMedia:fields.auditRemark')}
        maxLength={MEDIA_AUDIT_REMARK_MAX}
        autosize
        minRows={2}
        value={remark}
        onChange={(e) => setRemark(e.currentTarget.value)}
        error={errors.auditRemark}
      />
    </FormDialog>
  );
}

/** Plays a medium from the gateway through a signed link (ranges let the player seek), with its checksum. */
export function MediaPreviewModal({ medium, onClose }: { medium: MediaRow; onClose: () => void }) {
  const { t } = useTranslation();
  const link = useMediaPreview(medium.id);
  return (
    <Modal opened onClose={onClose} title={t('broadcastMedia:previewTitle', { name: medium.materialName })} size="lg">
      <Stack data-testid="media-player">
        {link.data && (
          <audio controls autoPlay preload="metadata" src={link.data.url} style={{ width: '100%' }} data-testid="media-audio">
            {t('broadcastMedia:noAudioSupport')}
          </audio>
        )}
        <Group justify="space-between" gap="xs">
          <Text size="sm">{`${t('broadcastMedia:fields.duration')}: ${formatDuration(medium.duration)}`}</Text>
          <Text size="xs" c="dimmed" ff="monospace" style={{ wordBreak: 'break-all' }} title={t('broadcastMedia:checksum')}>
            {medium.sha256}
          </Text>
        </Group>
      </Stack>
    </Modal>
  );
}
