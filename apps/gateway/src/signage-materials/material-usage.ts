import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * The seam between materials and the ads that play them. Deleting a material asks, in the transaction that deletes it
 * and with the material's row locked (FOR UPDATE), which published ads use it; any answer refuses the deletion
 * ('Failed to delete material: it is used by the published ads …'). The ads module provides its own MaterialUsage
 * under MATERIAL_USAGE (replacing NoMaterialUsage in SignageMaterialsModule) and, when it publishes an ad, locks the
 * ad's materials FOR SHARE, so neither change misses the other.
 */
export interface MaterialUsage {
  /** Names of the published ads that use the material (a few at most, for the message), in `tx`. */
  publishedAdsUsing(tx: EntityManager, materialId: number): Promise<string[]>;
}

export const MATERIAL_USAGE = Symbol('MATERIAL_USAGE');

/** Until ads exist, no material is used by any. */
@Injectable()
export class NoMaterialUsage implements MaterialUsage {
  publishedAdsUsing(): Promise<string[]> {
    return Promise.resolve([]);
  }
}
