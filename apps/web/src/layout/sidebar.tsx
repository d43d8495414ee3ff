import { lazy, Suspense, useEffect, useState } from 'react';
import { Box, Group, NavLink, ScrollArea, Text } from '@mantine/core';
import { Link, useRouterState } from '@tanstack/react-router';
import { IconBuildingCommunity, IconCircleDot } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { RouteEntry } from '@/navigation/route-table';
import { useSettings } from '@/settings/settings-store';
import { useMenu } from './use-menu';
import classes from './layout.module.css';

// Collapsing the sidebar is a choice some users make: its icon flyouts load only then.
const CollapsedMenu = lazy(() => import('./sidebar-collapsed').then((m) => ({ default: m.CollapsedMenu })));

export function isActive(entry: RouteEntry, pathname: string): boolean {
  return pathname === entry.path || pathname.startsWith(`${entry.path}/`);
}

function MenuItem({ entry, pathname, depth }: { entry: RouteEntry; pathname: string; depth: number }) {
  const { t } = useTranslation();
  const Icon = entry.icon ?? (depth > 0 ? null : IconCircleDot);
  const label = t(`common:route.${entry.title}`);
  const active = isActive(entry, pathname);
  const [opened, setOpened] = useState(active);
  // Reaching a page by search, a tab or a link opens its group, so the current page is always visible in the menu.
  useEffect(() => {
    if (active) setOpened(true);
  }, [active]);
  if (entry.children) {
    return (
      <NavLink
        label={label}
        leftSection={Icon ? <Icon size={18} stroke={1.6} /> : null}
        opened={opened}
        onChange={setOpened}
        active={false}
        className={classes.navLink}
        data-testid={`menu-${entry.path}`}
        childrenOffset={28}
      >
        {entry.children.map((child) => (
          <MenuItem key={child.path} entry={child} pathname={pathname} depth={depth + 1} />
        ))}
      </NavLink>
    );
  }
  return (
    <NavLink
      component={Link}
      to={entry.path}
      label={label}
      leftSection={Icon ? <Icon size={18} stroke={1.6} /> : null}
      active={isActive(entry, pathname)}
      className={classes.navLink}
      data-testid={`menu-${entry.path}`}
    />
  );
}

export function Sidebar({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const menu = useMenu();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const showLogo = useSettings((s) => s.sidebarLogo);
  return (
    <Box className={classes.sidebar} data-testid="sidebar" data-collapsed={collapsed || undefined}>
      {showLogo && (
        <Link to="/" className={classes.logo} data-testid="sidebar-logo">
          <Group gap={10} wrap="nowrap" w="100%" justify={collapsed ? 'center' : 'flex-start'}>
            <IconBuildingCommunity size={26} stroke={1.6} />
            {!collapsed && (
              // A long name (Spanish 'Ciudad Inteligente') wraps onto a second line rather than being cut.
              <Text fw={700} size="md" c="white" lh={1.15} lineClamp={2} data-testid="sidebar-logo-name">
                {t('common:appName')}
              </Text>
            )}
          </Group>
        </Link>
      )}
      <ScrollArea className={classes.menuScroll} type="hover">
        <nav aria-label={t('common:nav.menu')}>
          {collapsed ? (
            <Suspense fallback={null}>
              <CollapsedMenu menu={menu} pathname={pathname} />
            </Suspense>
          ) : (
            menu.map((entry) => <MenuItem key={entry.path} entry={entry} pathname={pathname} depth={0} />)
          )}
        </nav>
      </ScrollArea>
    </Box>
  );
}
