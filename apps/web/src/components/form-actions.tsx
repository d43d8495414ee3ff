import { useState, type ReactNode } from 'react';
import { Button, Group, Modal, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { fieldErrors } from '@/api/field-errors';
import type { MqttCredentials } from '@sc/contracts';
import { i18next } from '@/i18n';
import { notifySuccess } from './notify';

/**
 * Cancel and the main button at the foot of a dialog. The main button submits the dialog's form, or runs `onConfirm`
 * when given; it reads Save unless told.
 */
export function FormActions({
  onCancel,
  loading,
  testId,
  label,
  onConfirm,
}: {
  onCancel: () => void;
  loading: boolean;
  testId: string;
  label?: string;
  onConfirm?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        {t('common:actions.cancel')}
      </Button>
      <Button type={onConfirm ? 'button' : 'submit'} onClick={onConfirm} loading={loading} data-testid={testId}>
        {label ?? t('common:actions.save')}
      </Button>
    </Group>
  );
}

/**
 * A dialog holding one form: its fields (`children`), then Cancel and the submit button (`submitTestId`, Save unless
 * `submitLabel` says otherwise). Validation is the form's own (`noValidate`).
 */
export function FormDialog({
  opened,
  title,
  onClose,
  onSubmit,
  busy,
  testId,
  submitTestId,
  submitLabel,
  size,
  children,
}: {
  opened: boolean;
  title: string;
  onClose: () => void;
  onSubmit: () => unknown;
  busy: boolean;
  testId: string;
  submitTestId: string;
  submitLabel?: string;
  size?: string;
  children: ReactNode;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} size={size}>
      <form
        noValidate
        data-testid={testId}
        onSubmit={(e) => {
          e.preventDefault();
          void onSubmit();
        }}
      >
        <Stack>
          {children}
          <FormActions onCancel={onClose} loading={busy} testId={submitTestId} label={submitLabel} />
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * Saves a dialog's form: on success says Updated (`updated`) or Created, closes the dialog and hands out the MQTT login
 * the answer carries (a new device's); on refusal puts the server's field messages under their inputs (the toast is
 * already on screen).
 */
export async function saveAndClose(
  save: () => Promise<unknown>,
  { updated, close, setErrors }: { updated: boolean; close: () => void; setErrors: (errors: Record<string, string>) => void },
): Promise<void> {
  try {
    const answer = await save();
    notifySuccess(i18next.t(updated ? 'common:feedback.updated' : 'common:feedback.created'));
    close();
    // A new device's MQTT login (or its new one, after a change of its code), shown once; its dialog loads then.
    const credentials = credentialsIn(answer);
    if (credentials) (await import('./mqtt-credentials')).showMqttCredentials(credentials);
  } catch (error) {
    setErrors(fieldErrors(error));
  }
}

/** The MQTT login in a save's answer, if the answer carries one. */
function credentialsIn(answer: unknown): MqttCredentials | undefined {
  const mqtt = answer && typeof answer === 'object' && 'mqtt' in answer ? (answer as { mqtt?: MqttCredentials }).mqtt : undefined;
  return mqtt && typeof mqtt.username === 'string' && typeof mqtt.password === 'string' ? mqtt : undefined;
}

/**
 * The row a form dialog edits (null: a new one) and whether it is open. Closing keeps the row, so the dialog's
 * closing transition still shows it.
 */
export function useFormDialog<R>() {
  const [state, setState] = useState<{ opened: boolean; row: R | null }>({ opened: false, row: null });
  return {
    ...state,
    open: (row: R | null) => setState({ opened: true, row }),
    close: () => setState((s) => ({ ...s, opened: false })),
  };
}
