import { useState } from 'react';
import { FileInput, Group, Modal, Progress, SegmentedControl, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { IconFileMusic } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LIMITS, MEDIA_AUDIT_REMARK_MAX, MEDIA_NAME_MAX, MEDIA_UPLOAD_EXTENSIONS, MediaAuditStatus, type MediaRow } from '@sc/contracts';
import { fieldErrors } from '@/api/field-errors';
import { ApiError } from '@/api/request';
import { FormDialog, saveAndClose } from '@/components/form-actions';
import { notifySuccess } from '@/components/notify';
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

/** Upload: an MP3 and an optional name, sent to the upload port with its progress; the server's refusal stays on screen. */
export function MediaUploadModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const send = useUploadMedia(useUploadBase());
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [progress, setProgress] = useState<number | null>(null);
  const choose = (chosen: File | null) => {
    setFile(chosen);
    const problem = chosen && mediaFileProblem(chosen);
    setErrors({ file: problem ? t(problem) : undefined });
  };
  const submit = async () => {
    const problem = mediaFileProblem(file);
    if (problem || !file) return setErrors({ file: t(problem ?? 'messages:chooseFile') });
    setProgress(0);
    try {
      await send.mutateAsync({ file, name, onProgress: setProgress });
      notifySuccess(t('broadcastMedia:uploaded'));
      onClose();
    } catch (error) {
      // A refusal of the file itself (its content, its size) stands under it too.
      const byField = fieldErrors(error);
      setErrors(Object.keys(byField).length > 0 || !(error instanceof ApiError) ? byField : { file: error.message });
    } finally {
      setProgress(null);
    }
  };
  const percent = Math.round((progress ?? 0) * 100);
  return (
    <FormDialog
      opened
      onClose={onClose}
      title={t('broadcastMedia:uploadTitle')}
      onSubmit={submit}
      busy={send.isPending}
      testId="media-upload-form"
      submitTestId="media-upload-submit"
      submitLabel={t('broadcastMedia:upload')}
    >
      <FileInput
        label={t('broadcastMedia:file')}
        placeholder={t('broadcastMedia:filePlaceholder')}
        description={t('broadcastMedia:fileHint')}
        required
        clearable
        accept={`${MEDIA_UPLOAD_EXTENSIONS.join(',')},audio/mpeg`}
        leftSection={<IconFileMusic size={16} />}
        value={file}
        onChange={choose}
        error={errors.file}
        data-testid="media-upload-file"
      />
      <TextInput
        label={t('broadcastMedia:fields.materialName')}
        description={t('broadcastMedia:nameHint')}
        maxLength={MEDIA_NAME_MAX}
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={errors.materialName}
        data-testid="media-upload-name"
      />
      {progress !== null && (
        <Stack gap={4} data-testid="media-upload-progress">
          <Progress value={percent} animated={progress >= 1} />
          <Text size="xs" c="dimmed">
            {progress < 1 ? t('broadcastMedia:uploading', { percent }) : t('broadcastMedia:checking')}
          </Text>
        </Stack>
      )}
    </FormDialog>
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
