import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { MaterialUsage } from '../signage-materials/material-usage';

/**
 * Which ads use a material: every ad that names it (cover, a zone or its music), read from signage_ad_material.
 * The issue refuses deleting a material "a published ad" uses; until ad plans publish ads, every ad counts, since any
 * may be published, and an ad whose material is gone could neither be previewed nor played (docs/signage-ads.md).
 */
@Injectable()
export class AdMaterialUsage implements MaterialUsage {
  async adsUsing(tx: EntityManager, materialId: number): Promise<string[]> {
    const rows: { name: string }[] = await tx.query(
      `SELECT a.name FROM signage_ad_material l JOIN signage_ad a ON a.id = l.ad_id WHERE l.material_id = $1 ORDER BY a.id`,
      [materialId],
    );
    return rows.map((row) => row.name);
  }
}
