/**
 * Roles and button-level permissions (spec section 6).
 *
 * isAdmin = 1 gives the role `admin`; other users take their roles from the names of the
 * permission objects their group grants; none gives `default`. The spec leaves open which role
 * gets which button: ROLE_BUTTONS below is the product's answer, documented in docs/permissions.md,
 * and the server enforces it on every call.
 */
export enum Role {
  Admin = 'admin',
  Editor = 'editor',
  Visit = 'visit',
  Default = 'default',
}

/**
 * The roles of the alarm columns' events and pages (ALARM_FAMILY.eventRoles): kept here, apart from the family's
 * declaration, so the console's frame can tell whether to load the alarm notices without loading the declaration.
 */
export const ALARM_EVENT_ROLES: readonly Role[] = [Role.Admin, Role.Editor];

/** Names a general group may grant. 'Home' also opens the landing page (/entry). */
export const GRANTABLE_PERMISSIONS = ['Home', Role.Editor, Role.Visit] as const;
export type GrantablePermission = (typeof GRANTABLE_PERMISSIONS)[number];

/** What an administrator's login content lists. */
export const ADMIN_PERMISSIONS = ['Admin', 'Home'] as const;

export enum Button {
  View = 'view',
  Add = 'add',
  Refresh = 'refresh',
  EditMqtt = 'editMqtt',
  Edit = 'edit',
  Delete = 'delete',
  BatchUpdateGateway = 'batchUpdateGateway',
  SyncData = 'syncData',
  BindGateway = 'bindGateway',
  BatchDelete = 'batchDelete',
  ImportData = 'importData',
  OpenLamp = 'openLamp',
  CloseLamp = 'closeLamp',
  OpenAndClose = 'openAndClose',
}

export const ALL_BUTTONS: readonly Button[] = Object.values(Button);

export const ROLE_BUTTONS: Readonly<Record<Role, readonly Button[]>> = {
  [Role.Admin]: ALL_BUTTONS,
  // Editors run the equipment day to day; changing a device's MQTT broker settings stays with administrators.
  [Role.Editor]: ALL_BUTTONS.filter((b) => b !== Button.EditMqtt),
  [Role.Visit]: [Button.View, Button.Refresh],
  [Role.Default]: [Button.View],
};

export interface PermissionObject {
  name: string;
}

/** Roles of a user as spec section 6 defines them. */
export function rolesOf(isAdmin: boolean, permissionNames: readonly string[]): string[] {
  if (isAdmin) return [Role.Admin];
  const names = [...new Set(permissionNames.map((n) => n.trim()).filter(Boolean))];
  return names.length > 0 ? names : [Role.Default];
}

/** Buttons granted by a set of roles (unknown role names grant nothing). */
export function buttonsOf(roles: readonly string[]): Button[] {
  const granted = new Set<Button>();
  for (const role of roles) {
    for (const button of ROLE_BUTTONS[role as Role] ?? []) granted.add(button);
  }
  if (granted.size === 0) for (const button of ROLE_BUTTONS[Role.Default]) granted.add(button);
  return ALL_BUTTONS.filter((b) => granted.has(b));
}

/** Parses login `content` (JSON text of permission objects); anything malformed counts as none. */
export function parsePermissionContent(content: string | null | undefined): string[] {
  if (!content) return [];
  try {
    const parsed: unknown = JSON.parse(content);
    if (!Array.isArray(parsed)) return [];
    return parsed
      .map((p) => (p && typeof p === 'object' && typeof (p as PermissionObject).name === 'string' ? (p as PermissionObject).name : ''))
      .filter(Boolean);
  } catch {
    return [];
  }
}
