import { createFileRoute, redirect } from '@tanstack/react-router';
import { ROUTE_TABLE } from '@/navigation/route-table';
import { sectionTarget } from '@/navigation/permitted-routes';

/** A section's own path leads to its first permitted page (or /401); any other unknown path goes to /404. */
export const Route = createFileRoute('/_auth/$')({
  beforeLoad: ({ location, context }) => {
    throw redirect({ href: sectionTarget(ROUTE_TABLE, location.pathname, context.roles), replace: true });
  },
});
