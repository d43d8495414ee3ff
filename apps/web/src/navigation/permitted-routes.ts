import { Role, type Button } from '@sc/contracts';
import type { RouteEntry } from './route-table';

/** Spec section 6: administrators get every route; others keep the routes whose roles include one of theirs. */
export function isPermitted(entry: Pick<RouteEntry, 'roles'>, roles: readonly string[]): boolean {
  if (roles.includes(Role.Admin)) return true;
  return !entry.roles || entry.roles.some((role) => roles.includes(role));
}

/** The routes a user may open, filtered recursively through children. */
export function permittedRoutes(table: readonly RouteEntry[], roles: readonly string[]): RouteEntry[] {
  return table
    .filter((entry) => isPermitted(entry, roles))
    .map((entry) => (entry.children ? { ...entry, children: permittedRoutes(entry.children, roles) } : entry))
    .filter((entry) => !entry.children || entry.children.length > 0);
}

/**
 * Sidebar items: hidden routes are left out, and a parent with a single visible child collapses into that
 * child's link (keeping the parent's icon) unless it asks to stay a group.
 */
export function menuItems(routes: readonly RouteEntry[]): RouteEntry[] {
  return routes.flatMap((entry): RouteEntry[] => {
    if (entry.hidden) return [];
    if (!entry.children) return [entry];
    const visible = menuItems(entry.children);
    if (visible.length === 0) return [];
    if (visible.length === 1 && !entry.alwaysShow && !visible[0].children) return [{ ...visible[0], icon: visible[0].icon ?? entry.icon }];
    return [{ ...entry, children: visible }];
  });
}

/** The chain of entries from the top of the table down to `path`, or [] when the table has no such route. */
export function routeTrail(table: readonly RouteEntry[], path: string): RouteEntry[] {
  const normalised = path.length > 1 ? path.replace(/\/+$/, '') : path;
  for (const entry of table) {
    if (entry.path === normalised) return [entry];
    if (entry.children && normalised.startsWith(`${entry.path}/`)) {
      const below = routeTrail(entry.children, normalised);
      if (below.length > 0) return [entry, ...below];
    }
  }
  return [];
}

/** Whether a user may open `path`: every entry on its trail must permit one of their roles. */
export function canOpen(table: readonly RouteEntry[], path: string, roles: readonly string[]): boolean {
  const trail = routeTrail(table, path);
  return trail.length > 0 && trail.every((entry) => isPermitted(entry, roles));
}

/** A console page of the route table that these roles may not open (pages outside the table are not judged here). */
export function isForbidden(table: readonly RouteEntry[], path: string, roles: readonly string[]): boolean {
  return routeTrail(table, path).length > 0 && !canOpen(table, path, roles);
}

/** Where a parent path leads: its redirect when the user may open it, else its first permitted visible page. */
export function landingPath(entry: RouteEntry, roles: readonly string[]): string | undefined {
  if (!entry.children) return entry.path;
  const redirectEntry = entry.redirect ? entry.children.find((child) => child.path === entry.redirect) : undefined;
  if (entry.redirect && (!redirectEntry || isPermitted(redirectEntry, roles))) return entry.redirect;
  for (const child of entry.children) {
    if (child.hidden || !isPermitted(child, roles)) continue;
    const path = landingPath(child, roles);
    if (path) return path;
  }
  return undefined;
}

/** Every visible page a user may open, flattened with its title trail (for the header search). */
export function searchablePages(routes: readonly RouteEntry[], parents: readonly string[] = []): { path: string; titles: string[] }[] {
  return routes.flatMap((entry) => {
    if (entry.hidden) return [];
    const titles = [...parents, entry.title];
    return entry.children ? searchablePages(entry.children, titles) : [{ path: entry.path, titles }];
  });
}

/**
 * Where a path that is not a page leads: a section opens its first page the user may open, and a section with none
 * (for these roles) is /401, whichever roles the section itself names; anything else is /404 (spec section 2).
 */
export function sectionTarget(table: readonly RouteEntry[], path: string, roles: readonly string[]): string {
  const entry = routeTrail(table, path).at(-1);
  if (!entry?.children) return '/404';
  if (!canOpen(table, entry.path, roles)) return '/401';
  return landingPath(entry, roles) ?? '/401';
}

/**
 * The granted operations the user can use somewhere: those offered by a page they may open. A grant with no page
 * behind it for this user (an editor's lamp commands, whose pages are administrators') is left out.
 */
export function reachableButtons(table: readonly RouteEntry[], roles: readonly string[], granted: readonly Button[]): Button[] {
  const offered = new Set<Button>();
  const visit = (entries: readonly RouteEntry[]) => {
    for (const entry of entries) {
      for (const button of entry.buttons ?? []) offered.add(button);
      if (entry.children) visit(entry.children);
    }
  };
  visit(permittedRoutes(table, roles));
  return granted.filter((button) => offered.has(button));
}
