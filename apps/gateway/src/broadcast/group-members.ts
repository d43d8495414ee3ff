import type { EntityManager } from 'typeorm';
import { AppException } from '../common/app-exception';

/** Unknown group ids named in a refusal at most; the rest are counted. */
const UNKNOWN_SHOWN = 10;

/**
 * The terminals of broadcast groups, for a command or a task addressed to them: each terminal once, locked against
 * deletion until the caller's transaction ends (FOR KEY SHARE, in id order, as devicesByIds), and the groups locked
 * against edits and deletion (FOR SHARE) so their membership stays what was read. An unknown group is refused under
 * `groupIds`, as is an empty one ('This group has no devices and cannot be selected'): nothing is sent then.
 */
export async function terminalsOfGroups(tx: EntityManager, groupIds: readonly number[]): Promise<number[]> {
  const wanted = [...new Set(groupIds)].sort((a, b) => a - b);
  const groups: { id: number; hasMembers: boolean }[] = await tx.query(
    `SELECT g.id, EXISTS (SELECT 1 FROM broadcast_group_member m WHERE m.group_id = g.id) AS "hasMembers"
       FROM broadcast_group g WHERE g.id = ANY($1::int[]) ORDER BY g.id FOR SHARE OF g`,
    [wanted],
  );
  if (groups.length < wanted.length) {
    const found = new Set(groups.map((g) => g.id));
    const missing = wanted.filter((id) => !found.has(id));
    const shown = missing.slice(0, UNKNOWN_SHOWN).join(', ') + (missing.length > UNKNOWN_SHOWN ? ` (+${missing.length - UNKNOWN_SHOWN})` : '');
    throw AppException.field('groupIds', 'unknownBroadcastGroups', { ids: shown });
  }
  if (groups.some((g) => !g.hasMembers)) throw AppException.field('groupIds', 'emptyGroupNotSelectable');
  const rows: { id: number }[] = await tx.query(
    `SELECT d.id FROM device d JOIN broadcast_terminal t ON t.device_id = d.id
      WHERE d.id IN (SELECT device_id FROM broadcast_group_member WHERE group_id = ANY($1::int[]))
      ORDER BY d.id FOR KEY SHARE OF d`,
    [wanted],
  );
  return rows.map((r) => r.id);
}
