import { Role } from '@sc/contracts';

/** The spec gates no floor-screen route: administrators and editors run it (the floor-screen devices use the same). */
export const MATERIAL_ROLES = [Role.Admin, Role.Editor] as const;
