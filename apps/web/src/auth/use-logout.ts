import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTags } from '@/settings/tags-store';
import { session } from './session-store';

/** Spec sections 2 and 4: log out on the server, forget token, roles, routes and open tabs, then the login page. */
export function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const href = useRouterState({ select: (s) => s.location.href });
  return async () => {
    await session.logout();
    useTags.getState().closeAll();
    queryClient.clear();
    await navigate({ to: '/login', search: { redirect: href } });
  };
}
