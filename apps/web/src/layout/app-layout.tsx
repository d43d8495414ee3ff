import { lazy, Suspense, useEffect, useState, type CSSProperties } from 'react';
import { Box, rem } from '@mantine/core';
import { Outlet, useRouterState } from '@tanstack/react-router';
import { ALARM_EVENT_ROLES } from '@sc/contracts';
import { useSession } from '@/auth/session-store';
import { loadNamespaces } from '@/i18n';
import { useSettings } from '@/settings/settings-store';
import { Sidebar } from './sidebar';
import { Header } from './header/header';
import { TagsView } from './tags-view';
import { AutoRefresh } from './header/auto-refresh';
import { PageErrorBoundary } from './page-error-boundary';
import { useIsMobile } from './use-is-mobile';
import { useRefreshKey } from './refresh-key';
import classes from './layout.module.css';

const MobileNav = lazy(() => import('./mobile-nav'));
// The alarm intercom's notices and an agent's call panel, on every page of the alarm roles (loaded beside the first page).
const IncidentLayer = lazy(() => loadNamespaces(['alarmIntercom', 'alarmColumns']).then(() => import('@/features/alarm-intercom/incident-layer')));

/** Spec sections 2 and 9: the sidebar is 210 px; below 992 px it is a drawer, closed after every route change. */
export const SIDEBAR_WIDTH = 210;
export const SIDEBAR_COLLAPSED_WIDTH = 64;

export function AppLayout() {
  const isMobile = useIsMobile();
  const sidebarOpened = useSettings((s) => s.sidebarOpened);
  const toggleSidebar = useSettings((s) => s.toggleSidebar);
  const fixedHeader = useSettings((s) => s.fixedHeader);
  const tagsView = useSettings((s) => s.tagsView);
  const [drawerOpened, setDrawerOpened] = useState(false);
  const location = useRouterState({ select: (s) => s.location.href });
  // The page the Outlet renders: its matches change in the same update as what it renders (while the next page's code
  // loads, the previous one stays). The resolved location follows only after that render, and keying on it rebuilt
  // every new page once more, sending its requests twice.
  const shownPath = useRouterState({ select: (s) => s.matches[s.matches.length - 1]?.pathname ?? s.location.pathname });
  const refreshKey = useRefreshKey((s) => s.key);
  const alarmRole = useSession((s) => s.roles.some((role) => (ALARM_EVENT_ROLES as readonly string[]).includes(role)));

  useEffect(() => setDrawerOpened(false), [location, isMobile]);

  const onToggle = () => (isMobile ? setDrawerOpened((o) => !o) : toggleSidebar());
  const sidebarExpanded = isMobile ? drawerOpened : sidebarOpened;

  return (
    // The console's own frame (a fixed sidebar beside the page; off screen below 992 px, where the drawer replaces it):
    // Mantine's AppShell would bring its resizable sections, header, footer and aside to every page for this.
    <div
      style={{ '--sidebar-width': rem(sidebarOpened ? SIDEBAR_WIDTH : SIDEBAR_COLLAPSED_WIDTH) } as CSSProperties}
      data-device={isMobile ? 'mobile' : 'desktop'}
    >
      <nav className={classes.navbar}>
        <Sidebar collapsed={!sidebarOpened} />
      </nav>
      {isMobile && (
        <Suspense fallback={null}>
          <MobileNav opened={drawerOpened} onClose={() => setDrawerOpened(false)} width={SIDEBAR_WIDTH} />
        </Suspense>
      )}
      <main className={classes.main}>
        <Box
          component="header"
          style={{ position: fixedHeader ? 'sticky' : 'relative', top: 0, zIndex: 100, boxShadow: '0 1px 4px rgba(0, 21, 41, 0.08)' }}
          data-testid="app-header"
        >
          <Header sidebarOpened={sidebarExpanded} onToggleSidebar={onToggle} isMobile={isMobile} />
          {tagsView && <TagsView />}
        </Box>
        <Box className={classes.content}>
          {/* A new page, or the same page refreshed, starts with a fresh component tree (and a fresh error state). */}
          <PageErrorBoundary key={`${shownPath}#${refreshKey}`}>
            <Outlet />
          </PageErrorBoundary>
        </Box>
        <AutoRefresh />
      </main>
      {alarmRole && (
        <Suspense fallback={null}>
          <IncidentLayer />
        </Suspense>
      )}
    </div>
  );
}
