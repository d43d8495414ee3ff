import type { OnlineState, SSID_MAX, WIFI_NAME_MAX } from '@sc/contracts';
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

/** terminalManage's tab, filters and page, kept in the address; the history's window is local date-times. */
export interface TerminalSearch extends PageSearch {
  tab?: 'online' | 'history';
  client?: string;
  apId?: number;
  acId?: number;
  clientSsid?: string;
  regionId?: number;
  from?: string;
  to?: string;
  /** Minutes. */
  minDuration?: number;
}

export const validateTerminalSearch = searchOf<TerminalSearch>({
  ...PAGED,
  tab: { oneOf: allOf<'online' | 'history'>()('online', 'history') },
  client: { text: 45 },
  apId: 'id',
  acId: 'id',
  clientSsid: { text: 32 satisfies typeof SSID_MAX },
  regionId: 'int',
  from: 'dateTime',
  to: 'dateTime',
  minDuration: 'int',
});
