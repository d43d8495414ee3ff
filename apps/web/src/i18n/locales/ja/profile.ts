import type { Shape } from '../shape';
import type { profile as en } from '../en/profile';

export const profile: Shape<typeof en> = {};
