import { useState } from 'react';
import { Image, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  MATERIAL_EXTENSIONS,
  MATERIAL_NAME_FIELD,
  MATERIAL_NAME_MAX,
  MATERIAL_STORAGE_AREA_MAX,
  MATERIAL_UPLOAD,
  MaterialType,
  materialTypeOfName,
  type MaterialRow,
} from '@sc/contracts';
import { BoundedNumberInput, numberFieldError } from '@/components/bounded-number-input';
import { FormDialog, saveAndClose } from '@/components/form-actions';
import { FileUploadDialog } from '@/components/file-upload-dialog';
import { useUploadBase } from '@/features/imports/api';
import { useMaterialPreview, useMaterialStorageArea, useRenameMaterial, useUploadMaterial } from './api';
import { formatDuration } from './format';

const AREA_BOUNDS = { min: 0, max: MATERIAL_STORAGE_AREA_MAX, decimals: 0 };

/** The console's own check of a chosen file (its name and size); the server checks again, by content. */
function fileProblem(t: (key: string, params?: Record<string, unknown>) => string, file: File | null): string | null {
  if (!file) return t('messages:chooseFile');
  const type = materialTypeOfName(file.name);
  if (!type) return t('signageMaterials:wrongType');
  const { maxBytes } = MATERIAL_UPLOAD[type];
  if (file.size > maxBytes) return t('signageMaterials:tooLarge', { maxMb: Math.round(maxBytes / (1024 * 1024)) });
  return null;
}

/** Upload: a file and an optional name, sent to the upload port with its progress; the server's refusal stays on screen. */
export function MaterialUploadModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const send = useUploadMaterial(useUploadBase());
  return (
    <FileUploadDialog
      title={t('signageMaterials:uploadTitle')}
      file={{
        label: t('signageMaterials:file'),
        placeholder: t('signageMaterials:filePlaceholder'),
        hint: t('signageMaterials:fileHint'),
        accept: MATERIAL_EXTENSIONS.join(','),
        icon: <IconUpload size={16} />,
      }}
      name={{
        label: t('signageMaterials:fields.name'),
        hint: t('signageMaterials:nameHint'),
        maxLength: MATERIAL_NAME_MAX,
        field: MATERIAL_NAME_FIELD,
      }}
      problem={(file) => fileProblem(t, file)}
      send={send.mutateAsync}
      busy={send.isPending}
      done={t('signageMaterials:uploaded')}
      progress={{ uploading: (percent) => t('signageMaterials:uploading', { percent }), checking: t('signageMaterials:checking') }}
      submitLabel={t('signageMaterials:upload')}
      onClose={onClose}
      testId="material-upload"
    />
  );
}

/** Edit: the name and the storage area, each saved when changed. */
export function MaterialEditModal({ material, onClose }: { material: MaterialRow; onClose: () => void }) {
  const { t } = useTranslation();
  const rename = useRenameMaterial();
  const area = useMaterialStorageArea();
  const [name, setName] = useState(material.name);
  const [storageArea, setStorageArea] = useState<number | string>(material.storageArea ?? '');
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const submit = async () => {
    const areaError = numberFieldError(t, storageArea, AREA_BOUNDS);
    if (!name.trim() || areaError) return setErrors({ name: name.trim() ? undefined : t('messages:nameEmpty'), storageArea: areaError ?? undefined });
    const nextArea = storageArea === '' ? null : Number(storageArea);
    await saveAndClose(
      async () => {
        if (name.trim() !== material.name) await rename.mutateAsync({ id: material.id, name: name.trim() });
        if (nextArea !== material.storageArea) await area.mutateAsync({ id: material.id, storageArea: nextArea });
      },
      { updated: true, close: onClose, setErrors },
    );
  };
  return (
    <FormDialog
      opened
      onClose={onClose}
      title={t('signageMaterials:editTitle', { name: material.name })}
      onSubmit={submit}
      busy={rename.isPending || area.isPending}
      testId="material-edit-form"
      submitTestId="material-edit-save"
    >
      <TextInput
        label={t('signageMaterials:fields.name')}
        required
        maxLength={MATERIAL_NAME_MAX}
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={errors.name}
        data-autofocus
        data-testid="material-edit-name"
      />
      <BoundedNumberInput
        label={t('signageMaterials:fields.storageArea')}
        placeholder={t('signageMaterials:noArea')}
        bounds={AREA_BOUNDS}
        allowDecimal={false}
        allowNegative={false}
        value={storageArea}
        onChange={setStorageArea}
        error={errors.storageArea}
        data-testid="material-edit-area"
      />
    </FormDialog>
  );
}

/** Shows or plays a material from the gateway through a signed link (ranges let the video seek). */
export function MaterialPreviewModal({ material, onClose }: { material: MaterialRow; onClose: () => void }) {
  const { t } = useTranslation();
  const link = useMaterialPreview(material.id);
  const url = link.data?.url;
  return (
    <Modal opened onClose={onClose} title={t('signageMaterials:previewTitle', { name: material.name })} size="xl">
      <Stack data-testid="material-preview">
        {url && material.type === MaterialType.Image && <Image src={url} alt={material.name} fit="contain" mah="70vh" data-testid="material-image" />}
        {url && material.type === MaterialType.Video && (
          <video controls autoPlay preload="metadata" src={url} style={{ width: '100%', maxHeight: '70vh' }} data-testid="material-video">
            {t('signageMaterials:noVideoSupport')}
          </video>
        )}
        {url && material.type === MaterialType.Music && (
          <audio controls autoPlay preload="metadata" src={url} style={{ width: '100%' }} data-testid="material-audio">
            {t('signageMaterials:noAudioSupport')}
          </audio>
        )}
        {material.duration !== null && <Text size="sm">{`${t('signageMaterials:fields.duration')}: ${formatDuration(material.duration)}`}</Text>}
      </Stack>
    </Modal>
  );
}
