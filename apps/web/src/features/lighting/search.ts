import type { LAMP_NAME_MAX, LampStatus, OnlineState } from '@sc/contracts';
import { allOf, PAGED, searchOf, type PageSearch, type SearchReaders } from '@/navigation/search-params';

/** The lamp list's page and filters, kept in the address. */
export interface LampSearch extends PageSearch {
  lampName?: string;
  regionId?: number;
  status?: LampStatus;
  networkStatus?: OnlineState;
  gatewayId?: string;
  groupId?: number;
}

const LAMP_READERS: SearchReaders<LampSearch> = {
  ...PAGED,
  lampName: { text: 64 satisfies typeof LAMP_NAME_MAX },
  regionId: 'int',
  // Normal, then synchronizing, distributing, distribution failed, distribution succeeded, offline.
  status: { oneOf: allOf<LampStatus>()(0, -1, -2, -3, -4, -5) },
  networkStatus: { oneOf: allOf<OnlineState>()(0, 1) },
  gatewayId: { text: 64 },
  groupId: 'int',
};

export const validateLampSearch = searchOf<LampSearch>(LAMP_READERS);

export const EQUIPMENT_TABS = ['gateways', 'loops', 'lamps', 'groups'] as const;
export type EquipmentTab = (typeof EQUIPMENT_TABS)[number];

/**
 * The equipment page keeps its tab in the address too, and the dispatch its lamp commands started; the lamp filters
 * belong to the lamps tab.
 */
export interface EquipmentSearch extends LampSearch {
  tab?: EquipmentTab;
  dispatch?: string;
}

export const validateEquipmentSearch = searchOf<EquipmentSearch>({ ...LAMP_READERS, tab: { oneOf: EQUIPMENT_TABS }, dispatch: 'dispatch' });

/** The control page also keeps the dispatch being followed, so a reload shows it again. */
export interface LampControlSearch extends LampSearch {
  dispatch?: string;
}

export const validateLampControlSearch = searchOf<LampControlSearch>({ ...LAMP_READERS, dispatch: 'dispatch' });
