import type { AlarmKind, AlarmState, FamilyName, FaultCode, LAMP_NAME_MAX } from '@sc/contracts';
import { allOf, PAGED, searchOf, type PageSearch } from '@/navigation/search-params';

export type AlarmView = 'open' | 'history';

/** The alarm page's view, filters and page, kept in the address. */
export interface AlarmSearch extends PageSearch {
  /** open (default): active and acknowledged alarms, live; history: every alarm, cleared ones too. */
  view?: AlarmView;
  /** One family's alarms (the device alarms page). */
  family?: FamilyName;
  regionId?: number;
  kind?: AlarmKind;
  code?: FaultCode;
  state?: AlarmState;
  deviceId?: number;
  keyword?: string;
  /** Local date-times, YYYY-MM-DDTHH:mm. */
  from?: string;
  to?: string;
}

export const validateAlarmSearch = searchOf<AlarmSearch>({
  ...PAGED,
  view: { oneOf: allOf<AlarmView>()('open', 'history') },
  family: { oneOf: allOf<FamilyName>()('lamp', 'strip', 'lamp-gateway', 'broadcast', 'signage', 'led', 'radar', 'ac', 'ap', 'alarm', 'camera') },
  regionId: 'int',
  kind: { oneOf: allOf<AlarmKind>()('fault', 'dayBurning', 'darkLamp', 'offline', 'overload') },
  code: { oneOf: allOf<FaultCode>()(1, 2, 3, 4, 5, 6, 7, 8) },
  state: { oneOf: allOf<AlarmState>()('active', 'acknowledged', 'cleared') },
  deviceId: 'int',
  keyword: { text: 64 satisfies typeof LAMP_NAME_MAX },
  from: 'dateTime',
  to: 'dateTime',
});
