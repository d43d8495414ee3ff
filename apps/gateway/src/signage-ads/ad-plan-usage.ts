import type { EntityManager } from 'typeorm';

/**
 * The seam between ads and the ad plans that publish them. Deleting ads asks, in the transaction that deletes them
 * and with their rows locked (FOR UPDATE), which plans use any of them; any answer refuses the deletion ('This ad is
 * used by the ad plans …'). The plans module's PlansAdUsage answers it, and plans lock the ads they name FOR SHARE,
 * so neither change misses the other.
 */
export interface AdPlanUsage {
  /** Names of the plans that use any of the ads, in `tx`. */
  plansUsing(tx: EntityManager, adIds: readonly number[]): Promise<string[]>;
}

export const AD_PLAN_USAGE = Symbol('AD_PLAN_USAGE');
