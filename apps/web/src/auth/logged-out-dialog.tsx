import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { i18next } from '@/i18n';
import { removeToken } from './token';

const MODAL_ID = 'confirm-logged-out';
let open = false;

/**
 * Spec section 8, code -1: 'Confirm logout' with Re-Login (clears the token and reloads, which leads to the login
 * page with this page as the redirect) and Cancel (stay on the page). Shown once however many calls fail together.
 */
export function confirmLoggedOut(): void {
  if (open) return;
  open = true;
  modals.openConfirmModal({
    modalId: MODAL_ID,
    title: i18next.t('messages:confirmLogoutTitle'),
    children: <Text size="sm">{i18next.t('messages:confirmLogoutText')}</Text>,
    labels: { confirm: i18next.t('common:session.reLogin'), cancel: i18next.t('common:session.cancel') },
    confirmProps: { 'data-testid': 'relogin' } as Record<string, string>,
    closeOnConfirm: true,
    onConfirm: () => {
      removeToken();
      window.location.reload();
    },
    onClose: () => {
      open = false;
    },
  });
}
