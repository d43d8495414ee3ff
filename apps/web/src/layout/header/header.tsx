import { Anchor, Burger, Group } from '@mantine/core';
import { useRouter } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { CENTER_LINKS } from '@/navigation/route-table';
import { Breadcrumbs } from './breadcrumbs';
import classes from '../layout.module.css';

const HeaderTools = lazy(() => import('./header-tools').then((m) => ({ default: m.HeaderTools })));

export function Header({ sidebarOpened, onToggleSidebar, isMobile }: { sidebarOpened: boolean; onToggleSidebar: () => void; isMobile: boolean }) {
  const { t } = useTranslation();
  return (
    <Group className={classes.header} wrap="nowrap" justify="space-between">
      <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
        <Burger opened={sidebarOpened} onClick={onToggleSidebar} size="sm" aria-label={t('common:nav.toggleSidebar')} data-testid="sidebar-toggle" />
        {!isMobile && <Breadcrumbs />}
        {!isMobile && <CenterLinks />}
      </Group>
      <Suspense fallback={null}>
        <HeaderTools isMobile={isMobile} />
      </Suspense>
    </Group>
  );
}

/** Spec section 2: monitoring, command and operation centers, shown once the router has their pages. */
function CenterLinks() {
  const { t } = useTranslation();
  const router = useRouter();
  const available = CENTER_LINKS.filter((link) => link.path in router.routesByPath);
  if (available.length === 0) return null;
  return (
    <Group gap="md" ml="md" wrap="nowrap">
      {available.map((link) => (
        <Anchor key={link.path} href={link.path} size="sm" fw={500}>
          {t(`common:route.${link.title}`)}
        </Anchor>
      ))}
    </Group>
  );
}
