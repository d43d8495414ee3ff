import { lazy, Suspense, useEffect, useState } from 'react';
import { Button, CloseButton } from '@mantine/core';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ROUTE_TABLE } from '@/navigation/route-table';
import { routeTrail } from '@/navigation/permitted-routes';
import { useTags, type VisitedTag } from '@/settings/tags-store';
import classes from './layout.module.css';

// The tabs' actions menu loads beside the page, not before it.
const TagsMenu = lazy(() => import('./tags-menu').then((m) => ({ default: m.TagsMenu })));

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
      <Suspense fallback={null}>
        <TagsMenu
          opened={menuFor !== null}
          target={target}
          onDismiss={() => setMenuFor(null)}
          onRefresh={(tag) => void navigate({ href: `/redirect${tag.fullPath}` })}
          onClose={closeTag}
          onCloseOthers={(tag) => {
            closeOthers(tag.path);
            if (tag.path !== location.pathname) void navigate({ href: tag.fullPath });
          }}
          onCloseAll={() => {
            closeAll();
            void navigate({ to: '/' });
          }}
        />
      </Suspense>
    </div>
  );
}
