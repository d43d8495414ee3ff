import { createFileRoute, redirect } from '@tanstack/react-router';
import { ROUTE_TABLE } from '@/navigation/route-table';
import { canOpen, landingPath, routeTrail } from '@/navigation/permitted-routes';

/** A section's own path leads to its first page; any other unknown path goes to /404 (spec section 2). */
export const Route = createFileRoute('/_auth/$')({
  beforeLoad: ({ location, context }) => {
    const entry = routeTrail(ROUTE_TABLE, location.pathname).at(-1);
    if (entry?.children) {
      if (!canOpen(ROUTE_TABLE, entry.path, context.roles)) throw redirect({ to: '/401' });
      const target = landingPath(entry, context.roles);
      if (target) throw redirect({ href: target, replace: true });
    }
    throw redirect({ to: '/404', replace: true });
  },
});
