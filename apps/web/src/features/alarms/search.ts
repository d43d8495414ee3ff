import { ALARM_KINDS, ALARM_STATES, FaultCode, LAMP_NAME_MAX, type AlarmKind, type AlarmState } from '@sc/contracts';
import { compact, readDate, readEnum, readInt, readPage, readText, type PageSearch } from '@/navigation/search-params';

export type AlarmView = 'open' | 'history';
const VIEWS: readonly AlarmView[] = ['open', 'history'];
const FAULT_CODES = Object.values(FaultCode).filter((v): v is FaultCode => typeof v === 'number');

/** The alarm page's view, filters and page, kept in the address. */
export interface AlarmSearch extends PageSearch {
  /** open (default): active and acknowledged alarms, live; history: every alarm, cleared ones too. */
  view?: AlarmView;
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

export function validateAlarmSearch(search: Record<string, unknown>): AlarmSearch {
  const code = readInt(search.code, 1, 8);
  return compact({
    ...readPage(search),
    view: readEnum(search.view, VIEWS),
    regionId: readInt(search.regionId),
    kind: readEnum(search.kind, ALARM_KINDS),
    code: code !== undefined && FAULT_CODES.includes(code) ? (code as FaultCode) : undefined,
    state: readEnum(search.state, ALARM_STATES),
    deviceId: readInt(search.deviceId),
    keyword: readText(search.keyword, LAMP_NAME_MAX),
    from: readDate(search.from, true),
    to: readDate(search.to, true),
  });
}
