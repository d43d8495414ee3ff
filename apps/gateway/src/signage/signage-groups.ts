import type { EntityManager } from 'typeorm';
import { AppException } from '../common/app-exception';
import { missingShown } from '../common/device-selection';

/**
 * The players of floor-screen groups, for a command addressed to them: each player once, locked against deletion
 * until the caller's transaction ends (FOR KEY SHARE, in id order), and the groups locked against renaming and deletion
 * (FOR SHARE). An unknown group is refused under `groupIds`, as is an empty one ('This group has no devices and
 * cannot be selected'): nothing is sent then.
 */
export async function signageOfGroups(tx: EntityManager, groupIds: readonly number[]): Promise<number[]> {
  const wanted = [...new Set(groupIds)].sort((a, b) => a - b);
  const groups: { id: number }[] = await tx.query(`SELECT id FROM signage_group WHERE id = ANY($1::int[]) ORDER BY id FOR SHARE`, [wanted]);
  if (groups.length < wanted.length) throw AppException.field('groupIds', 'unknownSignageGroups', { ids: missingShown(wanted, groups) });
  const players: { id: number; groupId: number }[] = await tx.query(
    `SELECT id, group_id AS "groupId" FROM signage_device WHERE group_id = ANY($1::int[]) ORDER BY id FOR KEY SHARE`,
    [wanted],
  );
  const withPlayers = new Set(players.map((p) => p.groupId));
  if (wanted.some((id) => !withPlayers.has(id))) throw AppException.field('groupIds', 'emptyGroupNotSelectable');
  return players.map((p) => p.id);
}

/** Locks one group against deletion until the transaction ends; refuses an unknown one under `field`. */
export async function lockSignageGroup(tx: EntityManager, groupId: number, field = 'groupId'): Promise<void> {
  const rows: unknown[] = await tx.query(`SELECT 1 FROM signage_group WHERE id = $1 FOR SHARE`, [groupId]);
  if (rows.length === 0) throw AppException.field(field, 'unknownSignageGroups', { ids: String(groupId) });
}
