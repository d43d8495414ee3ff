import type { Shape } from '../shape';
import type { region as en } from '../en/region';

export const region: Shape<typeof en> = {};
