import type { EntityManager } from 'typeorm';
import { LED_FAMILY, SIGNAGE_FAMILY, type FamilyName } from '@sc/contracts';
import { commandLedger } from '@sc/device-runtime';
import { AppException } from '../common/app-exception';
import { sqlOf } from '../infra/sql';

/** Where a command names what it needs: its family, its actions, and a jsonpath filter comparing with `$id`. */
export interface CommandReference {
  family: FamilyName;
  actions: readonly string[];
  path: string;
}

/** An LED medium, in real-time play and task commands (their `file`). */
export const LED_MEDIUM_SENT: CommandReference = { family: LED_FAMILY.family, actions: ['play', 'task'], path: '$.file ? (@.mediaId == $id)' };
/** A floor-screen ad, in ad plan publications (SIGNAGE_PUBLISH_SCHEMA `ads`). */
export const SIGNAGE_AD_SENT: CommandReference = { family: SIGNAGE_FAMILY.family, actions: ['publish'], path: '$.ads[*] ? (@.adId == $id)' };
/** A floor-screen material, in ad plan publications (SIGNAGE_PUBLISH_SCHEMA `files`). */
export const SIGNAGE_MATERIAL_SENT: CommandReference = {
  family: SIGNAGE_FAMILY.family,
  actions: ['publish'],
  path: '$.files[*] ? (@.materialId == $id)',
};

/**
 * Refuses to delete records that open (queued or sent) commands still name ('stillBeingSent'): a device fetching or
 * about to be given them would find them gone. Asked in the deleting transaction with the records locked.
 */
export async function stillBeingSent(tx: EntityManager, ref: CommandReference, ids: readonly number[]): Promise<AppException | null> {
  const open = await commandLedger.openNaming(sqlOf(tx), ref.family, ref.actions, ref.path, ids);
  return open.length > 0 ? AppException.conflict('stillBeingSent', { count: open.length }) : null;
}
