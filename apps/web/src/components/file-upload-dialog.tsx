import { useState, type ReactNode } from 'react';
import { FileInput, TextInput } from '@mantine/core';
import { fieldErrors } from '@/api/field-errors';
import { ApiError } from '@/api/request';
import { FormDialog } from './form-actions';
import { notifySuccess } from './notify';
import { UploadProgress } from './upload-progress';

/**
 * Uploading a file with an optional name to the upload port: the console's own check of the chosen file (`problem`,
 * a translated message or null), the bytes' progress and then the server's check, and the server's refusal of the file
 * (its content, its size) kept under it. `send` does the upload; `done` is said when it succeeds.
 */
export function FileUploadDialog({
  title,
  file: fileText,
  name: nameText,
  problem,
  send,
  busy,
  done,
  progress: progressText,
  submitLabel,
  onClose,
  testId,
}: {
  title: string;
  file: { label: string; placeholder: string; hint: string; accept: string; icon: ReactNode };
  name: { label: string; hint: string; maxLength: number; field: string };
  problem: (file: File | null) => string | null;
  send: (upload: { file: File; name: string; onProgress: (fraction: number) => void }) => Promise<unknown>;
  busy: boolean;
  done: string;
  progress: { uploading: (percent: number) => string; checking: string };
  submitLabel: string;
  onClose: () => void;
  /** Prefix of the test ids: `<testId>-form`, `-submit`, `-file`, `-name`, `-progress`. */
  testId: string;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [progress, setProgress] = useState<number | null>(null);
  const choose = (chosen: File | null) => {
    setFile(chosen);
    setErrors({ file: (chosen && problem(chosen)) || undefined });
  };
  const submit = async () => {
    const refusal = problem(file);
    if (refusal || !file) return setErrors({ file: refusal ?? undefined });
    setProgress(0);
    try {
      await send({ file, name, onProgress: setProgress });
      notifySuccess(done);
      onClose();
    } catch (error) {
      const byField = fieldErrors(error);
      setErrors(Object.keys(byField).length > 0 || !(error instanceof ApiError) ? byField : { file: error.message });
    } finally {
      setProgress(null);
    }
  };
  return (
    <FormDialog
      opened
      onClose={onClose}
      title={title}
      onSubmit={submit}
      busy={busy}
      testId={`${testId}-form`}
      submitTestId={`${testId}-submit`}
      submitLabel={submitLabel}
    >
      <FileInput
        label={fileText.label}
        placeholder={fileText.placeholder}
        description={fileText.hint}
        required
        clearable
        accept={fileText.accept}
        leftSection={fileText.icon}
        value={file}
        onChange={choose}
        error={errors.file}
        data-testid={`${testId}-file`}
      />
      <TextInput
        label={nameText.label}
        description={nameText.hint}
        maxLength={nameText.maxLength}
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={errors[nameText.field]}
        data-testid={`${testId}-name`}
      />
      <UploadProgress progress={progress} uploading={progressText.uploading} checking={progressText.checking} testId={`${testId}-progress`} />
    </FormDialog>
  );
}
