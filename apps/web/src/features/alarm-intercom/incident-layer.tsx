import { useCallback, useEffect, useRef, useState } from 'react';
import { Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPhone, IconPhoneOff, IconPhoneX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { CallState, IncidentState, type AgentMe, type AlarmIncidentRow, type IncidentChangedEvent } from '@sc/contracts';
import { formatDuration } from '@/features/broadcast/media-format';
import { intercomKeys, useAgentMe, useIncidentAction, useLiveAgentModes, useLiveIncidents } from './api';
import { soundPress, startRinging } from './alarm-sound';
import { IncidentPlace, LevelBadge } from './incident-parts';
import { CallVoicePanel } from './voice-call';

/** How long a new incident's notice stays (it stays in the incident list for good). */
const NOTICE_MS = 15_000;

/** Seconds from now to `iso`, never below 0, ticking once a second while shown. */
function useSecondsSince(iso: string | null, direction: 'since' | 'until'): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!iso) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [iso]);
  if (!iso) return 0;
  const diff = direction === 'since' ? now - Date.parse(iso) : Date.parse(iso) - now;
  return Math.max(0, Math.round(diff / 1000));
}

/**
 * Every console of the alarm roles, whatever page it shows: each new press is announced at once (a notice with its
 * level and place, and a sound), and an agent of a user group has a dock with its mode (IDLE, BUSY, OFFLINE) and the
 * call that rings it (answer, reject: it rings and sounds until then) or that it is on (the time talked, hang up).
 * Everything arrives pushed (IncidentChanged, AgentModeChanged); nothing is polled.
 */
export default function IncidentLayer() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const me = useAgentMe();
  // The notices render outside the router's tree: their link navigates with the layer's navigate.
  const navigate = useNavigate();
  const seen = useRef(new Set<string>());
  useLiveAgentModes();

  const onIncident = useCallback(
    ({ incident }: IncidentChangedEvent) => {
      const agent = queryClient.getQueryData<AgentMe | null>(intercomKeys.me);
      // The dock follows its own call: ringing the agent, connected to it, or moving away from it.
      if (agent) {
        const mine =
          incident.call && incident.call.agentUserId === agent.userId && [CallState.Ringing, CallState.Connected].includes(incident.call.state);
        const wasMine = agent.liveIncident?.id === incident.id;
        if (mine || wasMine) queryClient.setQueryData<AgentMe | null>(intercomKeys.me, { ...agent, liveIncident: mine ? incident : null } as AgentMe);
      }
      if (seen.current.has(incident.id) || incident.state !== IncidentState.Open || incident.call?.state === CallState.Ended) return;
      seen.current.add(incident.id);
      soundPress();
      notifications.show({
        id: `incident-${incident.id}`,
        color: 'red',
        autoClose: NOTICE_MS,
        title: t('alarmIntercom:notice.pressed', { name: incident.columnName, level: t(`alarmColumns:level.${incident.level}`) }),
        message: (
          <Stack gap={4} data-testid="incident-notice" data-incident={incident.id}>
            <IncidentPlace incident={incident} />
            <Anchor
              component="button"
              size="sm"
              ta="left"
              onClick={() => {
                notifications.hide(`incident-${incident.id}`);
                void navigate({ to: '/alarmManage/alarmManage', search: { view: 'incidents', incident: incident.id } });
              }}
              data-testid="incident-notice-open"
            >
              {t('alarmIntercom:notice.open')}
            </Anchor>
          </Stack>
        ),
      });
    },
    [queryClient, t, navigate],
  );
  useLiveIncidents(onIncident);

  if (!me.data) return null;
  return <AgentDock me={me.data} />;
}

/**
 * The agent's call panel, while a call rings it (answer, reject) or it is on one (the time talked, its voice, hang up):
 * above the page, bottom right, as an incoming alarm call should be. The voice lives as long as the connected call
 * shows (voice-call.tsx): it ends with the panel. The agent's mode is set in the header (agent-menu.tsx).
 */
function AgentDock({ me }: { me: AgentMe }) {
  const incident = me.liveIncident;
  const state = incident?.call?.state;
  if (!incident || (state !== CallState.Ringing && state !== CallState.Connected)) return null;
  return (
    <Paper
      withBorder
      shadow="lg"
      radius="md"
      p="sm"
      w={340}
      style={{ position: 'fixed', right: 16, bottom: 16, zIndex: 300 }}
      data-testid="agent-dock"
      data-mode={me.mode}
    >
      {state === CallState.Ringing ? <RingingCall incident={incident} /> : <ConnectedCall incident={incident} />}
    </Paper>
  );
}

function RingingCall({ incident }: { incident: AlarmIncidentRow }) {
  const { t } = useTranslation();
  const answer = useIncidentAction('Answer');
  const reject = useIncidentAction('Reject');
  const left = useSecondsSince(incident.call!.offerExpiresAt, 'until');
  useEffect(() => startRinging(), [incident.id]);
  return (
    <Stack gap={6} p="xs" bg="red.0" style={{ borderRadius: 6 }} data-testid="agent-ringing" data-incident={incident.id}>
      <Group gap="xs" justify="space-between" wrap="nowrap">
        <Text size="sm" fw={600}>
          {t('alarmIntercom:dock.ringing', { name: incident.columnName })}
        </Text>
        <LevelBadge level={incident.level} />
      </Group>
      <IncidentPlace incident={incident} />
      <Text size="xs" c="dimmed">
        {t('alarmIntercom:dock.ringsFor', { seconds: left })}
      </Text>
      <Group grow gap="xs">
        <Button
          color="green"
          leftSection={<IconPhone size={16} />}
          loading={answer.isPending}
          disabled={reject.isPending}
          onClick={() => answer.mutate({ id: incident.id })}
          data-testid="agent-answer"
        >
          {t('alarmIntercom:dock.answer')}
        </Button>
        <Button
          color="red"
          variant="light"
          leftSection={<IconPhoneX size={16} />}
          loading={reject.isPending}
          disabled={answer.isPending}
          onClick={() => reject.mutate({ id: incident.id })}
          data-testid="agent-reject"
        >
          {t('alarmIntercom:dock.reject')}
        </Button>
      </Group>
    </Stack>
  );
}

function ConnectedCall({ incident }: { incident: AlarmIncidentRow }) {
  const { t } = useTranslation();
  const hangUp = useIncidentAction('HangUp');
  const talked = useSecondsSince(incident.call!.answeredAt, 'since');
  return (
    <Stack gap={6} p="xs" bg="green.0" style={{ borderRadius: 6 }} data-testid="agent-connected" data-incident={incident.id}>
      <Group gap="xs" justify="space-between" wrap="nowrap">
        <Text size="sm" fw={600}>
          {t('alarmIntercom:dock.connected', { name: incident.columnName })}
        </Text>
        <Badge variant="light" color="green" ff="monospace" data-testid="agent-call-time">
          {formatDuration(talked)}
        </Badge>
      </Group>
      <IncidentPlace incident={incident} />
      <CallVoicePanel callId={incident.call!.id} />
      <Button
        color="red"
        leftSection={<IconPhoneOff size={16} />}
        loading={hangUp.isPending}
        onClick={() => hangUp.mutate({ id: incident.id })}
        data-testid="agent-hang-up"
      >
        {t('alarmIntercom:dock.hangUp')}
      </Button>
    </Stack>
  );
}
