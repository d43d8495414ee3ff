import { useState } from 'react';
import { TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { fieldErrors } from '@/api/field-errors';
import { FormDialog } from './form-actions';
import { notifySuccess } from './notify';

/**
 * Adds a group or renames one: its name alone ('Please enter the group name'); the server's refusal (a name taken)
 * stands under it. `save` sends the trimmed name; `updated` is what a rename says once done.
 */
export function GroupNameDialog<G extends { id: number; name: string }>({
  group,
  opened,
  onClose,
  save,
  busy,
  title,
  label,
  maxLength,
  updated,
  testId,
}: {
  group: G | null;
  opened: boolean;
  onClose: () => void;
  save: (body: { id?: number; name: string }) => Promise<unknown>;
  busy: boolean;
  title: string;
  label: string;
  maxLength: number;
  updated?: string;
  /** The form's test id; its save button is `<testId>-save` unless it is `group-form` (`group-save`). */
  testId: string;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [shownFor, setShownFor] = useState<{ opened: boolean; group: G | null } | null>(null);
  if (shownFor?.opened !== opened || shownFor.group !== group) {
    setShownFor({ opened, group });
    setName(group?.name ?? '');
    setError(undefined);
  }
  const submit = async () => {
    if (!name.trim()) return setError(t('messages:enterGroupName'));
    try {
      await save({ ...(group ? { id: group.id } : {}), name: name.trim() });
      notifySuccess(group ? (updated ?? t('common:feedback.updated')) : t('common:feedback.created'));
      onClose();
    } catch (err) {
      setError(fieldErrors(err).name);
    }
  };
  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={title}
      onSubmit={submit}
      busy={busy}
      testId={testId}
      submitTestId={testId === 'group-form' ? 'group-save' : `${testId}-save`}
    >
      <TextInput
        label={label}
        required
        maxLength={maxLength}
        name="name"
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={error}
      />
    </FormDialog>
  );
}
