import { useNavigate, useRouterState } from '@tanstack/react-router';
import { session } from './session-store';

/**
 * Spec sections 2 and 4: log out on the server, forget token, roles, routes, open tabs and cached data (the
 * session's reset listeners), then the login page with this page as the redirect.
 */
export function useLogout() {
  const navigate = useNavigate();
  const href = useRouterState({ select: (s) => s.location.href });
  return async () => {
    session.logout();
    await navigate({ to: '/login', search: { redirect: href } });
  };
}
