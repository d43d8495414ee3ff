import { useMemo } from 'react';
import { useSession } from '@/auth/session-store';
import { ROUTE_TABLE } from '@/navigation/route-table';
import { menuItems, permittedRoutes } from '@/navigation/permitted-routes';

/** The routes the signed-in user may open (spec section 6). */
export function usePermittedRoutes() {
  const roles = useSession((s) => s.roles);
  return useMemo(() => permittedRoutes(ROUTE_TABLE, roles), [roles]);
}

export function useMenu() {
  const routes = usePermittedRoutes();
  return useMemo(() => menuItems(routes), [routes]);
}
