import { useCallback } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  DeviceFamily,
  type AgentMe,
  type AgentMode,
  type AgentModeChangedEvent,
  type AlarmCallPageQuery,
  type AlarmCallRow,
  type AlarmIncidentDetail,
  type AlarmIncidentPageQuery,
  type AlarmIncidentRow,
  type AlarmUserGroupAddOrEditRequest,
  type AlarmUserGroupPageQuery,
  type AlarmUserGroupRow,
  type IncidentChangedEvent,
  type IncidentNearby,
  type IncidentRespondRequest,
  type IncidentRespondResult,
  type IntercomEndpointPageQuery,
  type IntercomEndpointRow,
  type PageResult,
  type VoiceConfig,
  type VoiceJoinAnswer,
  type VoiceJoinRequest,
} from '@sc/contracts';
import { get, post } from '@/api/request';
import { reloadQueries } from '@/realtime/reload';
import { useLiveFeed } from '@/realtime/use-socket';

export const intercomKeys = {
  me: ['alarm-intercom', 'me'] as const,
  incidents: ['alarm-intercom', 'incidents'] as const,
  incidentPage: (query: AlarmIncidentPageQuery) => ['alarm-intercom', 'incidents', 'page', query] as const,
  incident: (id: string) => ['alarm-intercom', 'incidents', 'detail', id] as const,
  nearby: (id: string) => ['alarm-intercom', 'incidents', 'nearby', id] as const,
  groups: ['alarm-intercom', 'groups'] as const,
  groupPage: (query: AlarmUserGroupPageQuery) => ['alarm-intercom', 'groups', 'page', query] as const,
  candidates: ['alarm-intercom', 'candidates'] as const,
  calls: ['alarm-intercom', 'calls'] as const,
  callPage: (query: AlarmCallPageQuery) => ['alarm-intercom', 'calls', 'page', query] as const,
  endpointPage: (query: IntercomEndpointPageQuery) => ['alarm-intercom', 'endpoints', 'page', query] as const,
};

/**
 * The signed-in user as an agent (null: in no user group). Kept current by the mode events and its own changes. Read
 * by the incident layer, whose feeds say when to read it again (`fetch`); the header's menu only follows what it read.
 */
export function useAgentMe({ fetch = true }: { fetch?: boolean } = {}) {
  return useQuery({
    queryKey: intercomKeys.me,
    queryFn: ({ signal }) => get<AgentMe | null>('/alarm/agentMe', undefined, { signal }),
    staleTime: Infinity,
    enabled: fetch,
  });
}

export function useSetAgentMode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (mode: AgentMode) => post<AgentMe>('/alarm/agentMode', { mode }),
    onSuccess: (me) => queryClient.setQueryData(intercomKeys.me, me),
  });
}

/** What the voice's peer connection needs (its STUN and TURN servers): read at each join, as TURN credentials expire. */
export function voiceConfig(signal?: AbortSignal): Promise<VoiceConfig> {
  return get<VoiceConfig>('/alarm/voiceConfig', undefined, { signal });
}

/**
 * Joins the voice of the agent's connected call: the browser's offer (its ICE candidates gathered) for the bridge's
 * answer. A refusal shows its message like any other; an aborted join (the call ended meanwhile) shows nothing.
 */
export function voiceJoin(body: VoiceJoinRequest, signal?: AbortSignal): Promise<VoiceJoinAnswer> {
  return post<VoiceJoinAnswer>('/alarm/voiceJoin', body, { signal });
}

export type IncidentAction = 'Answer' | 'Reject' | 'HangUp' | 'Acknowledge' | 'Note' | 'Level' | 'Close';

/** One of the incident's actions (`/alarm/incident{action}`); the answer is the incident as it is now. */
export function useIncidentAction(action: IncidentAction) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { id: string; note?: string; level?: number }) => post<AlarmIncidentRow>(`/alarm/incident${action}`, body),
    onSuccess: (incident) => {
      patchIncident(queryClient, incident);
      // Answering and hanging up move the agent's own mode.
      if (action === 'Answer' || action === 'HangUp') void queryClient.invalidateQueries({ queryKey: intercomKeys.me });
      void queryClient.invalidateQueries({ queryKey: intercomKeys.incident(incident.id) });
    },
  });
}

export function useIncidentPage(query: AlarmIncidentPageQuery) {
  return useQuery({
    queryKey: intercomKeys.incidentPage(query),
    queryFn: ({ signal }) => post<PageResult<AlarmIncidentRow>>('/alarm/incidentPage', query, { signal }),
    placeholderData: keepPreviousData,
    // IncidentChanged keeps the rows current (useLiveIncidents); no polling.
    staleTime: Infinity,
  });
}

export function useIncidentDetail(id: string | null) {
  return useQuery({
    queryKey: intercomKeys.incident(id ?? ''),
    queryFn: ({ signal }) => get<AlarmIncidentDetail>('/alarm/incidentDetail', { id: id! }, { signal }),
    enabled: id !== null,
    staleTime: Infinity,
  });
}

/** The devices near an incident's column that each response would go to (read when its drawer opens). */
export function useIncidentNearby(id: string, enabled: boolean) {
  return useQuery({
    queryKey: intercomKeys.nearby(id),
    queryFn: ({ signal }) => get<IncidentNearby>('/alarm/incidentNearby', { id }, { signal }),
    enabled,
  });
}

/** Sends a response to the devices near the column; the incident's log shows it with its dispatch. */
export function useIncidentRespond() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: IncidentRespondRequest) => post<IncidentRespondResult>('/alarm/incidentRespond', body),
    onSuccess: ({ incident }) => {
      patchIncident(queryClient, incident);
      void queryClient.invalidateQueries({ queryKey: intercomKeys.incident(incident.id) });
    },
  });
}

/** Puts an incident's new row into every loaded incident page that shows it (a new one makes the pages read again). */
export function patchIncident(queryClient: QueryClient, incident: AlarmIncidentRow): void {
  let shown = false;
  queryClient.setQueriesData<PageResult<AlarmIncidentRow>>({ queryKey: [...intercomKeys.incidents, 'page'] }, (page) => {
    if (!page || !page.list.some((row) => row.id === incident.id)) return page;
    shown = true;
    return { ...page, list: page.list.map((row) => (row.id === incident.id ? incident : row)) };
  });
  if (!shown) void queryClient.invalidateQueries({ queryKey: [...intercomKeys.incidents, 'page'] });
}

/**
 * Incidents as they change, pushed (IncidentChanged): the loaded lists and the incident's log follow, the call log is
 * read again when a call ends, and `onIncident` hears each one. After a reconnect everything is read again.
 */
export function useLiveIncidents(onIncident: (event: IncidentChangedEvent) => void = () => undefined): void {
  const queryClient = useQueryClient();
  useLiveFeed(
    'IncidentChanged',
    DeviceFamily.Alarm,
    useCallback(
      (event: IncidentChangedEvent) => {
        patchIncident(queryClient, event.incident);
        void queryClient.invalidateQueries({ queryKey: intercomKeys.incident(event.incident.id) });
        if (event.incident.call?.state === 'ended') void queryClient.invalidateQueries({ queryKey: intercomKeys.calls });
        onIncident(event);
      },
      [queryClient, onIncident],
    ),
    useCallback(() => {
      void reloadQueries(queryClient, intercomKeys.incidents);
      void reloadQueries(queryClient, intercomKeys.me);
    }, [queryClient]),
  );
}

export function useGroupPage(query: AlarmUserGroupPageQuery) {
  return useQuery({
    queryKey: intercomKeys.groupPage(query),
    queryFn: ({ signal }) => post<PageResult<AlarmUserGroupRow>>('/alarm/groupPage', query, { signal }),
    placeholderData: keepPreviousData,
    // AgentModeChanged keeps the agents' modes current (useLiveAgentModes).
    staleTime: Infinity,
  });
}

export function useAgentCandidates(enabled: boolean) {
  return useQuery({
    queryKey: intercomKeys.candidates,
    queryFn: ({ signal }) => get<{ id: number; username: string; groupId: number | null }[]>('/alarm/agentCandidates', undefined, { signal }),
    enabled,
  });
}

export function useSaveGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AlarmUserGroupAddOrEditRequest) => post<{ id: number }>('/alarm/groupAddOrEdit', body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: intercomKeys.groups });
      void queryClient.invalidateQueries({ queryKey: intercomKeys.candidates });
      void queryClient.invalidateQueries({ queryKey: intercomKeys.me });
    },
  });
}

export function useDeleteGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => get<null>('/alarm/groupDel', { id }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: intercomKeys.groups });
      void queryClient.invalidateQueries({ queryKey: intercomKeys.candidates });
      void queryClient.invalidateQueries({ queryKey: intercomKeys.me });
    },
  });
}

/** Agents' modes as they change, pushed (AgentModeChanged): the group lists and the user's own mode follow. */
export function useLiveAgentModes(): void {
  const queryClient = useQueryClient();
  useLiveFeed(
    'AgentModeChanged',
    DeviceFamily.Alarm,
    useCallback(
      (event: AgentModeChangedEvent) => {
        queryClient.setQueriesData<PageResult<AlarmUserGroupRow>>({ queryKey: [...intercomKeys.groups, 'page'] }, (page) =>
          page
            ? {
                ...page,
                list: page.list.map((group) => ({
                  ...group,
                  agents: group.agents.map((a) => (a.userId === event.userId ? { ...a, mode: event.mode, modeSince: event.modeSince } : a)),
                })),
              }
            : page,
        );
        queryClient.setQueryData<AgentMe | null>(intercomKeys.me, (me) =>
          me && me.userId === event.userId ? { ...me, mode: event.mode, modeSince: event.modeSince } : me,
        );
      },
      [queryClient],
    ),
    // The agent's own mode is read again by the incidents' feed (useLiveIncidents, beside this one wherever the mode
    // shows): one read of it per (re)join, not one per feed.
    useCallback(() => void reloadQueries(queryClient, intercomKeys.groups), [queryClient]),
  );
}

export function useCallPage(query: AlarmCallPageQuery) {
  return useQuery({
    queryKey: intercomKeys.callPage(query),
    queryFn: ({ signal }) => post<PageResult<AlarmCallRow>>('/alarm/callPage', query, { signal }),
    placeholderData: keepPreviousData,
    // Read again when a call ends (useLiveIncidents on the page).
    staleTime: Infinity,
  });
}

/**
 * The intercom's endpoints (equipmentInquiry). Read when opened and on request: their state moves with the columns'
 * reports and the agents' modes, which the lists of those pages follow live; this is an inquiry.
 */
export function useEndpointPage(query: IntercomEndpointPageQuery) {
  return useQuery({
    queryKey: intercomKeys.endpointPage(query),
    queryFn: ({ signal }) => post<PageResult<IntercomEndpointRow>>('/alarm/endpointPage', query, { signal }),
    placeholderData: keepPreviousData,
  });
}
