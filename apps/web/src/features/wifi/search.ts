import type { OnlineState, SSID_MAX, WIFI_NAME_MAX, WIFI_REGION_SERIES_MAX } from '@sc/contracts';
import { allOf, PAGED, searchOf, type PageSearch } from '@/navigation/search-params';

/** A Wi-Fi device list's page and filters, and the reboot being followed, kept in the address. */
export interface WifiDeviceSearch extends PageSearch {
  name?: string;
  regionId?: number;
  networkStatus?: OnlineState;
  /** The access point list: those of this controller. */
  acId?: number;
  dispatch?: string;
}

/** Both device lists' search (the controller list has no controller filter and ignores `acId`). */
export const validateWifiDeviceSearch = searchOf<WifiDeviceSearch>({
  ...PAGED,
  name: { text: 64 satisfies typeof WIFI_NAME_MAX },
  regionId: 'int',
  networkStatus: { oneOf: allOf<OnlineState>()(0, 1) },
  acId: 'id',
  dispatch: 'dispatch',
});

/**
 * terminalManage's tab, filters and page, kept in the address; the history's window is local date-times; the regions
 * compared side by side (By region) as `1,2,3`.
 */
export interface TerminalSearch extends PageSearch {
  tab?: 'online' | 'history' | 'regions';
  client?: string;
  apId?: number;
  acId?: number;
  clientSsid?: string;
  regionId?: number;
  from?: string;
  to?: string;
  /** Minutes. */
  minDuration?: number;
  regions?: string;
}

export const validateTerminalSearch = searchOf<TerminalSearch>({
  ...PAGED,
  tab: { oneOf: allOf<'online' | 'history' | 'regions'>()('online', 'history', 'regions') },
  client: { text: 45 },
  apId: 'id',
  acId: 'id',
  clientSsid: { text: 32 satisfies typeof SSID_MAX },
  regionId: 'int',
  from: 'dateTime',
  to: 'dateTime',
  minDuration: 'int',
  regions: { text: 240 },
});

/** How many regions the address may name (the server's limit, as data: the search check stays out of contracts' code). */
const REGIONS_MAX = 20 satisfies typeof WIFI_REGION_SERIES_MAX;

/** The regions of the address's `regions` (ids in decimal digits, at most 20; anything else is left out). */
export function regionIdsOf(text: string | undefined): number[] | undefined {
  if (text === undefined) return undefined;
  const ids = text
    .split(',')
    .filter((part) => /^[1-9]\d{0,9}$/.test(part))
    .map(Number);
  return [...new Set(ids)].slice(0, REGIONS_MAX);
}
