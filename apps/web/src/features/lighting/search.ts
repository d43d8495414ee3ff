import { LAMP_NAME_MAX, LampStatus, OnlineState } from '@sc/contracts';
import { compact, readDispatch, readInt, readPage, readText, type PageSearch } from '@/navigation/search-params';

const LAMP_STATUSES = Object.values(LampStatus).filter((v): v is LampStatus => typeof v === 'number');

/** The lamp list's page and filters, kept in the address. */
export interface LampSearch extends PageSearch {
  lampName?: string;
  regionId?: number;
  status?: LampStatus;
  networkStatus?: OnlineState;
  gatewayId?: string;
  groupId?: number;
}

function readSigned<T extends number>(value: unknown, allowed: readonly T[]): T | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : NaN;
  return (allowed as readonly number[]).includes(n) ? (n as T) : undefined;
}

export function validateLampSearch(search: Record<string, unknown>): LampSearch {
  return compact({
    ...readPage(search),
    lampName: readText(search.lampName, LAMP_NAME_MAX),
    regionId: readInt(search.regionId),
    status: readSigned(search.status, LAMP_STATUSES),
    networkStatus: readSigned(search.networkStatus, [OnlineState.Offline, OnlineState.Online]),
    gatewayId: readText(search.gatewayId, 64),
    groupId: readInt(search.groupId),
  });
}

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

export function validateEquipmentSearch(search: Record<string, unknown>): EquipmentSearch {
  const tab = EQUIPMENT_TABS.find((t) => t === search.tab);
  return compact({ ...validateLampSearch(search), tab, dispatch: readDispatch(search.dispatch) });
}

/** The control page also keeps the dispatch being followed, so a reload shows it again. */
export interface LampControlSearch extends LampSearch {
  dispatch?: string;
}

export function validateLampControlSearch(search: Record<string, unknown>): LampControlSearch {
  return compact({ ...validateLampSearch(search), dispatch: readDispatch(search.dispatch) });
}
