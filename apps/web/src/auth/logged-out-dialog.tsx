import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { i18next } from '@/i18n';
import { getToken } from './token';
import { session } from './session-store';

const MODAL_ID = 'confirm-logged-out';
let open = false;

/**
 * Spec section 8, code -1: 'Confirm logout' with Re-Login (ends the session here and reloads, which leads to the
 * login page with this page as the redirect) and Cancel (stay on the page; auto refresh pauses). Shown once however
 * many calls fail together. When this tab has no token left (another tab logged out), there is nothing to stay
 * signed in to: it goes to the login page, as the spec's HTTP-failure rule says.
 */
export function confirmLoggedOut(): void {
  session.markEnded();
  if (!getToken()) {
    session.reset();
    window.location.assign(`/login?redirect=${encodeURIComponent(window.location.pathname + window.location.search)}`);
    return;
  }
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
      session.reset();
      window.location.reload();
    },
    onClose: () => {
      open = false;
    },
  });
}
