import type { AccountStatus, AlarmLevel, CallProtocol, IncidentState, IntercomEndpointKind, OnlineState } from '@sc/contracts';
import { validateAlarmColumnSearch, type AlarmColumnSearch } from '@/features/alarm-columns/search';
import { allOf, PAGED, readText, searchOf, type PageSearch } from '@/navigation/search-params';

export type AlarmManageView = 'columns' | 'incidents';

/** /alarmManage/alarmManage: the columns (default) or the incidents, each with its filters, in the address. */
export interface AlarmManageSearch extends AlarmColumnSearch {
  view?: AlarmManageView;
  state?: IncidentState;
  level?: AlarmLevel;
  /** The incident shown in the drawer. */
  incident?: string;
}

const validateIncidentPart = searchOf<Pick<AlarmManageSearch, 'view' | 'state' | 'level' | 'incident'>>({
  view: { oneOf: allOf<AlarmManageView>()('columns', 'incidents') },
  state: { oneOf: allOf<IncidentState>()('open', 'acknowledged', 'closed') },
  level: { oneOf: allOf<AlarmLevel>()(0, 1, 2) },
  incident: (value: unknown) => {
    const text = typeof value === 'number' ? String(value) : readText(value, 18);
    return text && /^[1-9]\d*$/.test(text) ? text : undefined;
  },
});

export function validateAlarmManageSearch(search: Record<string, unknown>): AlarmManageSearch {
  return { ...validateAlarmColumnSearch(search), ...validateIncidentPart(search) };
}

/** The call log's filters, sort and page, in the address. */
export interface CallLogSearch extends PageSearch {
  keyword?: string;
  callType?: 'OFF2OFF' | 'OFF2ON' | 'ON2OFF' | 'ONNET';
  status?: 'Connected' | 'NoReply';
  direction?: 1 | 2 | 3;
  /** Local date-times, YYYY-MM-DDTHH:mm. */
  from?: string;
  to?: string;
  sort?: 1 | 2 | 3 | 4;
}

export const validateCallLogSearch = searchOf<CallLogSearch>({
  ...PAGED,
  keyword: { text: 64 },
  callType: { oneOf: allOf<NonNullable<CallLogSearch['callType']>>()('OFF2OFF', 'OFF2ON', 'ON2OFF', 'ONNET') },
  status: { oneOf: allOf<NonNullable<CallLogSearch['status']>>()('Connected', 'NoReply') },
  direction: { oneOf: allOf<NonNullable<CallLogSearch['direction']>>()(1, 2, 3) },
  from: 'dateTime',
  to: 'dateTime',
  sort: { oneOf: allOf<NonNullable<CallLogSearch['sort']>>()(1, 2, 3, 4) },
});

/** The user group list's page and name filter. */
export interface GroupSearch extends PageSearch {
  name?: string;
}

export const validateGroupSearch = searchOf<GroupSearch>({ ...PAGED, name: { text: 64 } });

/** The equipment inquiry's filters and page, in the address. */
export interface EndpointSearch extends PageSearch {
  keyword?: string;
  kind?: IntercomEndpointKind;
  protocol?: CallProtocol;
  accountStatus?: AccountStatus;
  online?: OnlineState;
}

export const validateEndpointSearch = searchOf<EndpointSearch>({
  ...PAGED,
  keyword: { text: 64 },
  kind: { oneOf: allOf<IntercomEndpointKind>()('column', 'agent') },
  protocol: { oneOf: allOf<CallProtocol>()('SIP', 'VOIP') },
  accountStatus: { oneOf: allOf<AccountStatus>()(0, 1) },
  online: { oneOf: allOf<OnlineState>()(0, 1) },
});

export type AudioInquiryTab = 'recordings' | 'announce';

/** audioInquiry: the tab; the recordings' filters and page; the announcement's dispatch being followed. */
export interface AudioInquirySearch extends PageSearch {
  tab?: AudioInquiryTab;
  keyword?: string;
  /** Local date-times, YYYY-MM-DDTHH:mm. */
  from?: string;
  to?: string;
  dispatch?: string;
}

export const validateAudioInquirySearch = searchOf<AudioInquirySearch>({
  ...PAGED,
  tab: { oneOf: allOf<AudioInquiryTab>()('recordings', 'announce') },
  keyword: { text: 64 },
  from: 'dateTime',
  to: 'dateTime',
  dispatch: 'dispatch',
});
