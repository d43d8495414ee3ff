import { createFileRoute, redirect } from '@tanstack/react-router';
import { useRefreshKey } from '@/layout/refresh-key';

/** Spec section 2: /redirect/{path} reopens a page from scratch (the refresh action of the navbar and tabs). */
export const Route = createFileRoute('/_auth/redirect/$')({
  beforeLoad: ({ params, location }) => {
    useRefreshKey.getState().bump();
    throw redirect({ href: `/${params._splat ?? ''}${location.searchStr}`, replace: true });
  },
});
