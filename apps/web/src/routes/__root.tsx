import { Outlet, createRootRouteWithContext, useRouterState } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { PAGE_TITLES, ROUTE_TABLE } from '@/navigation/route-table';
import { routeTrail } from '@/navigation/permitted-routes';
import { NotFoundRedirect } from '@/components/not-found-redirect';

export interface RouterContext {
  queryClient: QueryClient;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Root,
  notFoundComponent: NotFoundRedirect,
});

/** Spec section 1: the page title is 'Smart City' plus the translated route title. */
function useDocumentTitle() {
  const { t, i18n } = useTranslation();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  useEffect(() => {
    const key = PAGE_TITLES[pathname] ?? routeTrail(ROUTE_TABLE, pathname).at(-1)?.title;
    document.title = key ? t('common:titleTemplate', { title: t(`common:route.${key}`) }) : t('common:appName');
  }, [pathname, t, i18n.language]);
}

function Root() {
  useDocumentTitle();
  return <Outlet />;
}
