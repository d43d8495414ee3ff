import type { RouteEntry } from './route-table';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ALL_BUTTONS, Button, ROLE_BUTTONS, Role } from '@sc/contracts';
import { ROUTE_TABLE } from './route-table';
import {
  canOpen,
  isPermitted,
  landingPath,
  menuItems,
  permittedRoutes,
  reachableButtons,
  routeTrail,
  searchablePages,
  sectionTarget,
} from './permitted-routes';

// The gating of spec section 6, written as a table like the real one.
const TABLE: RouteEntry[] = [
  {
    path: '/home',
    title: 'home',
    roles: ['admin', 'editor'],
    children: [{ path: '/home/dashboard', title: 'dashboard', roles: ['admin', 'editor'] }],
  },
  {
    path: '/lampPole',
    title: 'lampPole',
    roles: ['admin', 'editor', 'visit'],
    children: [{ path: '/lampPole/poleManage', title: 'poleManage', roles: ['admin', 'visit'] }],
  },
  {
    path: '/smartLamp',
    title: 'smartLamp',
    roles: ['admin', 'visit'],
    children: [
      { path: '/smartLamp/equipmentManage', title: 'equipmentManage', roles: ['admin'] },
      { path: '/smartLamp/lampControl', title: 'lampControl', roles: ['admin'] },
    ],
  },
  { path: '/regionManage', title: 'regionManage', children: [{ path: '/regionManage/regionManage', title: 'regionManage' }] },
  {
    path: '/broadcastManage',
    title: 'broadcast',
    children: [
      { path: '/broadcastManage/terminalManagement', title: 'terminals' },
      { path: '/broadcastManage/terminalDetail', title: 'terminalDetail', hidden: true },
    ],
  },
  { path: '/alarmManage', title: 'alarm', alwaysShow: true, children: [{ path: '/alarmManage/alarmManage', title: 'alarmList' }] },
];

const paths = (entries: RouteEntry[]): string[] => entries.flatMap((e) => [e.path, ...paths([...(e.children ?? [])])]);

describe('permitted routes (spec section 6)', () => {
  it('gives administrators every route', () => {
    expect(paths(permittedRoutes(TABLE, ['admin']))).toEqual(paths(TABLE));
  });

  it('filters recursively by the roles of the user', () => {
    const visit = paths(permittedRoutes(TABLE, ['visit']));
    expect(visit).toContain('/lampPole/poleManage');
    expect(visit).not.toContain('/home');
    // The smart lamp section admits visitors, but every child is admin only: the empty section goes too.
    expect(visit).not.toContain('/smartLamp');
    expect(visit).toContain('/regionManage/regionManage');

    const editor = paths(permittedRoutes(TABLE, ['editor']));
    expect(editor).toContain('/home/dashboard');
    expect(editor).not.toContain('/lampPole');
  });

  it('gives a user without permissions (role default) only the unrestricted routes', () => {
    expect(paths(permittedRoutes(TABLE, ['default']))).toEqual([
      '/regionManage',
      '/regionManage/regionManage',
      '/broadcastManage',
      '/broadcastManage/terminalManagement',
      '/broadcastManage/terminalDetail',
      '/alarmManage',
      '/alarmManage/alarmManage',
    ]);
  });

  it('leaves hidden routes out of the menu and collapses a single visible child into one link', () => {
    const menu = menuItems(permittedRoutes(TABLE, ['default']));
    expect(menu.map((e) => e.path)).toEqual(['/regionManage/regionManage', '/broadcastManage/terminalManagement', '/alarmManage']);
    expect(menu[2].children?.map((c) => c.path)).toEqual(['/alarmManage/alarmManage']);
  });

  it('finds the trail of a path and whether a user may open it', () => {
    expect(routeTrail(TABLE, '/smartLamp/lampControl/').map((e) => e.path)).toEqual(['/smartLamp', '/smartLamp/lampControl']);
    expect(routeTrail(TABLE, '/nowhere')).toEqual([]);
    expect(canOpen(TABLE, '/smartLamp/lampControl', ['visit'])).toBe(false);
    expect(canOpen(TABLE, '/smartLamp/lampControl', ['admin'])).toBe(true);
    expect(canOpen(TABLE, '/lampPole/poleManage', ['editor'])).toBe(false);
    expect(canOpen(TABLE, '/nowhere', ['admin'])).toBe(false);
    expect(isPermitted({ roles: ['admin'] }, ['editor', 'visit'])).toBe(false);
  });

  it('leads a section to its first page the user may open', () => {
    expect(landingPath(TABLE[3], ['default'])).toBe('/regionManage/regionManage');
    expect(landingPath(TABLE[4], ['default'])).toBe('/broadcastManage/terminalManagement');
    expect(landingPath(TABLE[2], ['visit'])).toBeUndefined();
  });

  it('answers a section path alike for every role: its first permitted page, or /401; another unknown path /404', () => {
    expect(sectionTarget(TABLE, '/smartLamp', ['admin'])).toBe('/smartLamp/equipmentManage');
    // The section names the visitor, but none of its pages does; the editor is not named at all: both /401.
    expect(sectionTarget(TABLE, '/smartLamp', ['visit'])).toBe('/401');
    expect(sectionTarget(TABLE, '/smartLamp', ['editor'])).toBe('/401');
    expect(sectionTarget(TABLE, '/lampPole', ['editor'])).toBe('/401');
    expect(sectionTarget(TABLE, '/lampPole/', ['visit'])).toBe('/lampPole/poleManage');
    expect(sectionTarget(TABLE, '/nowhere', ['admin'])).toBe('/404');
    expect(sectionTarget(TABLE, '/smartLamp/nothing', ['admin'])).toBe('/404');
  });

  it('does not lead a section to a redirect the user may not open', () => {
    const section: RouteEntry = {
      path: '/systemSetting',
      title: 'system',
      redirect: '/systemSetting/userManage',
      children: [
        { path: '/systemSetting/userManage', title: 'users', roles: ['admin'] },
        { path: '/systemSetting/log', title: 'log', roles: ['admin', 'auditor'] },
      ],
    };
    expect(landingPath(section, ['admin'])).toBe('/systemSetting/userManage');
    expect(landingPath(section, ['auditor'])).toBe('/systemSetting/log');
  });

  it('lists the searchable pages with their title trail', () => {
    expect(searchablePages(permittedRoutes(TABLE, ['visit']))).toEqual(
      expect.arrayContaining([{ path: '/lampPole/poleManage', titles: ['lampPole', 'poleManage'] }]),
    );
    expect(searchablePages(TABLE).map((p) => p.path)).not.toContain('/broadcastManage/terminalDetail');
  });

  it('lists only the granted operations a page the user may open offers', () => {
    // An editor's menu is the region tree, the broadcast terminals and groups, the floor screens, the radars and the
    // profile: adding, editing and deleting regions, terminals, groups and screens, the terminals' playback and reboots,
    // the floor screens' screenshots (Refresh), and importing radars.
    expect(reachableButtons(ROUTE_TABLE, [Role.Editor], ROLE_BUTTONS[Role.Editor])).toEqual([
      Button.Add,
      Button.Refresh,
      Button.Edit,
      Button.Delete,
      Button.ImportData,
      Button.OpenAndClose,
    ]);
    // A visitor's pole page offers no button a visitor holds.
    expect(reachableButtons(ROUTE_TABLE, [Role.Visit], ROLE_BUTTONS[Role.Visit])).toEqual([]);
    expect(reachableButtons(ROUTE_TABLE, [Role.Admin], ALL_BUTTONS)).toEqual(ALL_BUTTONS);
  });

  it('names on its route every operation a page asks for', () => {
    // Every Button the console's pages check (useButton) is offered by some route, so the profile never hides one.
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) =>
        statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : name.endsWith('.tsx') ? [join(dir, name)] : [],
      );
    const used = new Set<string>();
    for (const file of files(join(__dirname, '..', 'features'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/useButton\(\w+\.(\w+)\)/g)) used.add(match[1]);
    }
    const offered = new Set<string>();
    const visit = (entries: readonly RouteEntry[]) =>
      entries.forEach((entry) => {
        for (const button of entry.buttons ?? []) offered.add(Object.entries(Button).find(([, value]) => value === button)![0]);
        if (entry.children) visit(entry.children);
      });
    visit(ROUTE_TABLE);
    expect(used.size).toBeGreaterThan(5);
    expect([...used].filter((name) => !offered.has(name))).toEqual([]);
  });
});
