import { useEffect, useState } from 'react';
import { ActionIcon, Button, CloseButton, Menu } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ROUTE_TABLE } from '@/navigation/route-table';
import { routeTrail } from '@/navigation/permitted-routes';
import { useTags, type VisitedTag } from '@/settings/tags-store';
import classes from './layout.module.css';

/** Visited tabs (spec section 2): one per path, closable, close others, close all; kept across reloads. */
export function TagsView() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useRouterState({ select: (s) => s.location });
  const { tags, visit, close, closeOthers, closeAll } = useTags();
  const [menuFor, setMenuFor] = useState<VisitedTag | null>(null);

  useEffect(() => {
    const entry = routeTrail(ROUTE_TABLE, location.pathname).at(-1);
    if (entry && !entry.children) visit({ path: location.pathname, fullPath: location.href, title: entry.title });
  }, [location.pathname, location.href, visit]);

  const closeTag = (tag: VisitedTag) => {
    const remaining = tags.filter((t) => t.path !== tag.path);
    close(tag.path);
    if (tag.path === location.pathname) void navigate({ href: remaining.at(-1)?.fullPath ?? '/' });
  };
  const current = tags.find((tag) => tag.path === location.pathname) ?? null;
  const target = menuFor ?? current;

  return (
    <div className={classes.tags} data-testid="tags-view">
      {tags.map((tag) => {
        const active = tag.path === location.pathname;
        return (
          <Button
            key={tag.path}
            className={classes.tag}
            size="compact-xs"
            variant={active ? 'filled' : 'default'}
            radius="sm"
            onClick={() => void navigate({ href: tag.fullPath })}
            onContextMenu={(event) => {
              event.preventDefault();
              setMenuFor(tag);
            }}
            onAuxClick={(event) => event.button === 1 && closeTag(tag)}
            onKeyDown={(event) => {
              // The close cross sits inside the tab button, so the keyboard closes a focused tab with Delete.
              if (event.key === 'Delete' || event.key === 'Backspace') closeTag(tag);
            }}
            aria-keyshortcuts="Delete"
            rightSection={
              <CloseButton
                component="span"
                size="xs"
                variant="transparent"
                c={active ? 'white' : 'dimmed'}
                aria-label={t('common:tags.close')}
                onClick={(event) => {
                  event.stopPropagation();
                  closeTag(tag);
                }}
              />
            }
            data-testid={`tag-${tag.path}`}
            data-active={active || undefined}
          >
            {t(`common:route.${tag.title}`)}
          </Button>
        );
      })}
      <Menu opened={menuFor !== null || undefined} onChange={(o) => !o && setMenuFor(null)} position="bottom-end" withArrow>
        <Menu.Target>
          <ActionIcon size="sm" color="gray" ml="auto" aria-label={t('common:tags.actions')} data-testid="tags-menu" onClick={() => setMenuFor(null)}>
            <IconChevronDown size={16} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {target && <Menu.Item onClick={() => void navigate({ href: `/redirect${target.fullPath}` })}>{t('common:tags.refresh')}</Menu.Item>}
          {target && <Menu.Item onClick={() => closeTag(target)}>{t('common:tags.close')}</Menu.Item>}
          {target && (
            <Menu.Item
              onClick={() => {
                closeOthers(target.path);
                if (target.path !== location.pathname) void navigate({ href: target.fullPath });
              }}
              data-testid="tags-close-others"
            >
              {t('common:tags.closeOthers')}
            </Menu.Item>
          )}
          <Menu.Item
            onClick={() => {
              closeAll();
              void navigate({ to: '/' });
            }}
            data-testid="tags-close-all"
          >
            {t('common:tags.closeAll')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </div>
  );
}
