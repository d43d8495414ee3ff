import { useEffect, useState } from 'react';
import { Box, Group, Menu, NavLink, ScrollArea, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { Link, useRouterState } from '@tanstack/react-router';
import { IconBuildingCommunity, IconCircleDot } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { RouteEntry } from '@/navigation/route-table';
import { useSettings } from '@/settings/settings-store';
import { useMenu } from './use-menu';
import classes from './layout.module.css';

function isActive(entry: RouteEntry, pathname: string): boolean {
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

/** Collapsed sidebar: icons only, children in a flyout. */
function CollapsedItem({ entry, pathname }: { entry: RouteEntry; pathname: string }) {
  const { t } = useTranslation();
  const Icon = entry.icon ?? IconCircleDot;
  const label = t(`common:route.${entry.title}`);
  const button = (
    <UnstyledButton
      className={classes.collapsedItem}
      data-active={isActive(entry, pathname) || undefined}
      aria-label={label}
      data-testid={`menu-${entry.path}`}
      {...(entry.children ? {} : { component: Link, to: entry.path })}
    >
      <Icon size={20} stroke={1.6} />
    </UnstyledButton>
  );
  if (!entry.children) {
    return (
      <Tooltip label={label} position="right" withArrow>
        {button}
      </Tooltip>
    );
  }
  return (
    <Menu position="right-start" trigger="click-hover" withArrow offset={4}>
      <Menu.Target>{button}</Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{label}</Menu.Label>
        {entry.children.map((child) => (
          <Menu.Item key={child.path} component={Link} to={child.path}>
            {t(`common:route.${child.title}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
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
          <Group gap={10} wrap="nowrap" justify={collapsed ? 'center' : 'flex-start'}>
            <IconBuildingCommunity size={26} stroke={1.6} />
            {!collapsed && (
              <Text fw={700} size="md" c="white" truncate>
                {t('common:appName')}
              </Text>
            )}
          </Group>
        </Link>
      )}
      <ScrollArea className={classes.menuScroll} type="hover">
        <nav aria-label={t('common:nav.menu')}>
          {menu.map((entry) =>
            collapsed ? (
              <CollapsedItem key={entry.path} entry={entry} pathname={pathname} />
            ) : (
              <MenuItem key={entry.path} entry={entry} pathname={pathname} depth={0} />
            ),
          )}
        </nav>
      </ScrollArea>
    </Box>
  );
}
