import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * The seam between ads and the ad plans that publish them. Deleting ads asks, in the transaction that deletes them
 * and with their rows locked (FOR UPDATE), which plans use any of them; any answer refuses the deletion ('This ad is
 * used by the ad plans …'). The plans module provides its own AdPlanUsage under AD_PLAN_USAGE (replacing NoAdPlanUsage
 * in SignageAdsModule) and locks the ads it publishes FOR SHARE, so neither change misses the other.
 */
export interface AdPlanUsage {
  /** Names of the plans that use any of the ads, in `tx`. */
  plansUsing(tx: EntityManager, adIds: readonly number[]): Promise<string[]>;
}

export const AD_PLAN_USAGE = Symbol('AD_PLAN_USAGE');

/** Until ad plans exist, no ad is used by any. */
@Injectable()
export class NoAdPlanUsage implements AdPlanUsage {
  plansUsing(): Promise<string[]> {
    return Promise.resolve([]);
  }
}
