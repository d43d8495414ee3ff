import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { i18next } from '@/i18n';
import { notifySuccess } from './notify';

/** A confirmation dialog: `title`, then `detail`, Cancel and `confirm`; resolves true when confirmed. */
export function confirmed({
  title,
  detail,
  confirm,
  color,
  testId,
}: {
  title: string;
  detail?: string;
  confirm: string;
  color?: string;
  testId: string;
}) {
  return new Promise<boolean>((resolve) => {
    modals.openConfirmModal({
      title,
      children: detail ? <Text size="sm">{detail}</Text> : null,
      labels: { confirm, cancel: i18next.t('common:actions.cancel') },
      confirmProps: { ...(color ? { color } : {}), 'data-testid': testId } as Record<string, string>,
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false),
    });
  });
}

/** 'Are you sure to delete?' (spec section 8) before anything is deleted; resolves true when confirmed. */
export function confirmDelete(detail?: string): Promise<boolean> {
  return confirmed({
    title: i18next.t('common:feedback.confirmDelete'),
    detail,
    confirm: i18next.t('common:actions.delete'),
    color: 'red',
    testId: 'confirm-delete',
  });
}

/**
 * 'Send the command?' before a command leaves for devices: `detail` says what it does and how many devices it reaches;
 * `confirm` labels the button (Send unless told). Resolves true when confirmed.
 */
export function confirmCommand(
  detail: string,
  { confirm, testId = 'command-confirm' }: { confirm?: string; testId?: string } = {},
): Promise<boolean> {
  return confirmed({
    title: i18next.t('common:command.confirmTitle'),
    detail,
    confirm: confirm ?? i18next.t('common:command.send'),
    testId,
  });
}

/** Asks ('Are you sure to delete?' with `detail`), deletes, and says `done`; a refusal is already on screen. */
export async function deleteAfterConfirm(detail: string, remove: () => Promise<unknown>, done: string): Promise<void> {
  if (!(await confirmDelete(detail))) return;
  try {
    await remove();
    notifySuccess(done);
  } catch {
    // The refusal is already on screen.
  }
}
