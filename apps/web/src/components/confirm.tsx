import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { i18next } from '@/i18n';
import { notifySuccess } from './notify';

/** 'Are you sure to delete?' (spec section 8) before anything is deleted; resolves true when confirmed. */
export function confirmDelete(detail?: string): Promise<boolean> {
  return new Promise((resolve) => {
    modals.openConfirmModal({
      title: i18next.t('common:feedback.confirmDelete'),
      children: detail ? <Text size="sm">{detail}</Text> : null,
      labels: { confirm: i18next.t('common:actions.delete'), cancel: i18next.t('common:actions.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-delete' } as Record<string, string>,
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false),
    });
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
