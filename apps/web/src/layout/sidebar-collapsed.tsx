import { Menu, Tooltip, UnstyledButton } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { IconCircleDot } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { RouteEntry } from '@/navigation/route-table';
import { isActive } from './sidebar';
import classes from './layout.module.css';

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

export function CollapsedMenu({ menu, pathname }: { menu: readonly RouteEntry[]; pathname: string }) {
  return menu.map((entry) => <CollapsedItem key={entry.path} entry={entry} pathname={pathname} />);
}
