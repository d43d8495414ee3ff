import { Outlet, createFileRoute, redirect } from '@tanstack/react-router';
import { i18next } from '@/i18n';
import { getToken } from '@/auth/token';
import { session, SessionError } from '@/auth/session-store';
import { ApiError } from '@/api/request';
import { notifyError } from '@/components/notify';

/**
 * Every page but /login and /auth-redirect needs a session (spec sections 2 and 4). A token without roles loads
 * user info once; when that fails the token is cleared, the reason (or 'Has Error') shown, and the user goes to
 * the login page with this page as the redirect.
 */
export const Route = createFileRoute('/_auth')({
  beforeLoad: async ({ location }) => {
    const toLogin = () => redirect({ to: '/login', search: { redirect: location.href } });
    if (!getToken()) throw toLogin();
    if (!session.isCurrent()) {
      // A first load, or the cookie now holds another user's token: start from a clean slate.
      if (session.state().roles.length > 0) session.forget();
      try {
        await session.loadInfo();
      } catch (error) {
        session.reset();
        notifyError(
          error instanceof SessionError
            ? i18next.t(error.message)
            : error instanceof ApiError && error.message
              ? error.message
              : i18next.t('messages:hasError'),
        );
        throw toLogin();
      }
    }
    // The socket client loads beside the first page instead of delaying it.
    void import('@/realtime/socket').then((realtime) => realtime.connectRealtime());
    return { roles: session.state().roles };
  },
  component: Outlet,
});
