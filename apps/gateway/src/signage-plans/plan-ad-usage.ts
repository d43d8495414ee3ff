import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AdPlanUsage } from '../signage-ads/ad-plan-usage';

/**
 * The ad plans that use ads (AdPlanUsage, asked when ads are deleted): every plan naming any of them, locked FOR SHARE
 * so none is saved without them in between; a plan saved meanwhile locks the ads FOR SHARE itself.
 */
@Injectable()
export class PlansAdUsage implements AdPlanUsage {
  async plansUsing(tx: EntityManager, adIds: readonly number[]): Promise<string[]> {
    const rows: { name: string }[] = await tx.query(
      `SELECT publish_name AS name FROM signage_ad_plan WHERE ad_ids && $1::int[] ORDER BY id FOR SHARE`,
      [adIds],
    );
    return rows.map((r) => r.name);
  }
}
