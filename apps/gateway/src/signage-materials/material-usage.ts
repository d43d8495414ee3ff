import type { EntityManager } from 'typeorm';

/**
 * The seam between materials and the ads that play them. Deleting a material asks, in the transaction that deletes it
 * and with the material's row locked (FOR UPDATE), which ads use it; any answer refuses the deletion ('Failed to
 * delete material: this material is used by the ads …'). The ads module's AdMaterialUsage answers it
 * (apps/gateway/src/signage-ads/ad-material-usage.ts); saving an ad locks its materials FOR SHARE, so neither change
 * misses the other.
 */
export interface MaterialUsage {
  /** Names of the ads that use the material, in `tx`. */
  adsUsing(tx: EntityManager, materialId: number): Promise<string[]>;
}

export const MATERIAL_USAGE = Symbol('MATERIAL_USAGE');
