import type { Shape } from '../shape';
import type { system as en } from '../en/system';

export const system: Shape<typeof en> = {};
