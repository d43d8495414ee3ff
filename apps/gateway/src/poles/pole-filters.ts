import { DeviceType } from '@sc/contracts';
import { Where, likeContains } from '../common/sql';
import { REGION_AND_BELOW } from '../common/device-selection';

export interface PoleFilters {
  name?: string;
  regionId?: number;
  groupId?: number;
}

/** The pole list's filters over `device d`, shared by the page and the export: name or code, region and below, group. */
export function poleWhere(f: PoleFilters): Where {
  return (
    new Where()
      .add('d.type = ?', DeviceType.LampPole)
      // Name and code in one text, kept apart by a character no filter can contain.
      .addIf(f.name, `concat_ws(chr(1), lower(d.name), lower(d.code)) LIKE ?`, f.name && likeContains(f.name))
      .addIf(f.regionId, `d.region_id IN (${REGION_AND_BELOW})`)
      .addIf(f.groupId, `d.group_id = ?`)
  );
}
