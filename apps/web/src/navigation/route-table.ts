import type { Icon } from '@tabler/icons-react';
import { IconBulb, IconLamp2, IconMap2, IconSettings, IconUserCircle } from '@tabler/icons-react';
import { Role } from '@sc/contracts';
import type { FeatureNamespace } from '@/i18n';

/**
 * The console's routes as data (spec section 2), with the role gating of spec section 6. The sidebar, the
 * breadcrumb, the page title, the header search, the landing tiles and the router's permission check all read
 * this one table. A module joins the table when its pages are built: nothing here leads to an empty page.
 */
export interface RouteEntry {
  /** Absolute path. */
  path: string;
  /** Key under `common:route`. */
  title: string;
  icon?: Icon;
  /** Roles that may open it; absent means every signed-in user. Administrators open everything. */
  roles?: readonly string[];
  /** Reachable, but not listed in the menu. */
  hidden?: boolean;
  /** The page is rebuilt on every visit instead of kept in the visited tabs' cache. */
  noCache?: boolean;
  /** Where the parent path itself leads; the first permitted child otherwise. */
  redirect?: string;
  /** Keep the parent as a group even with a single visible child. */
  alwaysShow?: boolean;
  /** Translation namespaces the page uses beyond the core ones (messages, fields, common); loaded before it shows. */
  namespaces?: readonly FeatureNamespace[];
  children?: readonly RouteEntry[];
}

export const ROUTE_TABLE: readonly RouteEntry[] = [
  {
    // Spec section 6: the section admits admin, editor and visit; pole manage admits admin and visit.
    path: '/lampPole',
    title: 'lampPole',
    icon: IconLamp2,
    roles: [Role.Admin, Role.Editor, Role.Visit],
    children: [{ path: '/lampPole/poleManage', title: 'poleManage', roles: [Role.Admin, Role.Visit], namespaces: ['imports', 'poles', 'region'] }],
  },
  {
    // Spec section 6: the section admits admin and visit; every page in it is admin only.
    path: '/smartLamp',
    title: 'smartLamp',
    icon: IconBulb,
    roles: [Role.Admin, Role.Visit],
    children: [
      {
        path: '/smartLamp/equipmentManage',
        title: 'equipmentManage',
        roles: [Role.Admin],
        namespaces: ['dispatch', 'imports', 'lighting', 'region'],
      },
      { path: '/smartLamp/lampControl', title: 'lampControl', roles: [Role.Admin], namespaces: ['dispatch', 'lighting', 'region'] },
      { path: '/smartLamp/lampStrategy', title: 'lampStrategy', roles: [Role.Admin], namespaces: ['dispatch', 'lighting', 'region', 'strategy'] },
      { path: '/smartLamp/lightManage', title: 'lightManage', roles: [Role.Admin], namespaces: ['dispatch', 'lighting', 'region', 'strip'] },
      { path: '/smartLamp/lightStrategy', title: 'lightStrategy', roles: [Role.Admin], namespaces: ['dispatch', 'region', 'strategy', 'strip'] },
      // Not in the spec's route table ("further route groups are not shown"): alarms and energy of issue 5.
      { path: '/smartLamp/lampAlarm', title: 'lampAlarm', roles: [Role.Admin], namespaces: ['alarms', 'lighting', 'region', 'system'] },
      { path: '/smartLamp/energy', title: 'energy', roles: [Role.Admin], namespaces: ['energy', 'system'] },
    ],
  },
  {
    path: '/regionManage',
    title: 'regionManage',
    icon: IconMap2,
    children: [{ path: '/regionManage/regionManage', title: 'regionManage', namespaces: ['region'] }],
  },
  {
    path: '/systemSetting',
    title: 'systemSetting',
    icon: IconSettings,
    roles: [Role.Admin],
    alwaysShow: true,
    redirect: '/systemSetting/userManage',
    children: [
      { path: '/systemSetting/userManage', title: 'userManage', roles: [Role.Admin], namespaces: ['system'] },
      { path: '/systemSetting/permission', title: 'permission', roles: [Role.Admin], namespaces: ['system'] },
      { path: '/systemSetting/log', title: 'log', roles: [Role.Admin], namespaces: ['system'] },
    ],
  },
  {
    path: '/profile',
    title: 'profile',
    icon: IconUserCircle,
    redirect: '/profile/inforManage',
    children: [{ path: '/profile/inforManage', title: 'inforManage', noCache: true, namespaces: ['profile'] }],
  },
];

/** Pages outside the sidebar that still have a title (public routes of spec section 2). */
export const PAGE_TITLES: Readonly<Record<string, string>> = {
  '/login': 'login',
  '/entry': 'entry',
  '/404': 'notFound',
  '/401': 'unauthorized',
};

/** Top navigation (spec section 2); a link shows only once the router has its page. */
export const CENTER_LINKS = [
  { path: '/monitoringCenter', title: 'monitoringCenter' },
  { path: '/board', title: 'commandCenter' },
  { path: '/dashboard', title: 'operationCenter' },
] as const;
