import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { i18next } from '@/i18n';

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
