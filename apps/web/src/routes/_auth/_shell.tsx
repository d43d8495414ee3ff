import { createFileRoute, redirect } from '@tanstack/react-router';
import { ROUTE_TABLE } from '@/navigation/route-table';
import { canOpen, routeTrail } from '@/navigation/permitted-routes';
import { loadNamespaces } from '@/i18n';
import { AppLayout } from '@/layout/app-layout';

/** Pages inside the console frame. A page the user's roles do not permit opens /401; the server refuses its calls anyway. */
export const Route = createFileRoute('/_auth/_shell')({
  beforeLoad: async ({ location, context }) => {
    if (!canOpen(ROUTE_TABLE, location.pathname, context.roles)) throw redirect({ to: '/401' });
    await loadNamespaces(routeTrail(ROUTE_TABLE, location.pathname).flatMap((entry) => entry.namespaces ?? []));
  },
  component: AppLayout,
});
