import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { i18next } from '@/i18n';
import { getToken } from './token';
import { session } from './session-store';

const MODAL_ID = 'confirm-logged-out';
let open = false;
/** When the user last chose to stay (Cancel or close) on the dialog, and for which token. */
let dismissed: { token: string; at: number } | undefined;

/**
 * Spec section 8, code -1: 'Confirm logout' with Re-Login (ends the session here and reloads, which leads to the
 * login page with this page as the redirect) and Cancel (stay on the page; auto refresh pauses). Shown once however
 * many calls fail together. When this tab has no token left (another tab logged out), there is nothing to stay
 * signed in to: it goes to the login page, as the spec's HTTP-failure rule says.
 *
 * `madeAt` (performance.now() when a call was sent): a call already on its way when the user chose to stay tells
 * nothing new and does not ask again; a call made after that (the user acting on the page) does.
 */
export function confirmLoggedOut(madeAt?: number): void {
  session.markEnded();
  if (!getToken()) {
    session.reset();
    window.location.assign(`/login?redirect=${encodeURIComponent(window.location.pathname + window.location.search)}`);
    return;
  }
  if (open) return;
  if (madeAt !== undefined && dismissed && dismissed.token === getToken() && madeAt <= dismissed.at) return;
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
      const token = getToken();
      if (token) dismissed = { token, at: performance.now() };
    },
  });
}
