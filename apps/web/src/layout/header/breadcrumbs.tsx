import { Anchor, Breadcrumbs as MantineBreadcrumbs, Text } from '@mantine/core';
import { Link, useRouterState } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ROUTE_TABLE } from '@/navigation/route-table';
import { routeTrail } from '@/navigation/permitted-routes';

export function Breadcrumbs() {
  const { t } = useTranslation();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  // A section whose only page has its own name ('Region Manage / Region Manage') is said once.
  const trail = routeTrail(ROUTE_TABLE, pathname).filter(
    (entry, index, all) => !(entry.children && entry.children.length === 1 && all[index + 1]?.title === entry.title),
  );
  return (
    <MantineBreadcrumbs separator="/" separatorMargin={6} data-testid="breadcrumb" visibleFrom="sm">
      <Anchor component={Link} to="/" size="sm" c="dimmed">
        {t('common:nav.dashboard')}
      </Anchor>
      {trail.map((entry, index) =>
        index === trail.length - 1 || entry.children ? (
          <Text key={entry.path} size="sm" c={index === trail.length - 1 ? undefined : 'dimmed'}>
            {t(`common:route.${entry.title}`)}
          </Text>
        ) : (
          <Anchor key={entry.path} component={Link} to={entry.path} size="sm">
            {t(`common:route.${entry.title}`)}
          </Anchor>
        ),
      )}
    </MantineBreadcrumbs>
  );
}
