import { Suspense, lazy, useState, type ReactNode } from 'react';
import { Badge, Box, Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconBulb, IconDeviceTv, IconSpeakerphone, IconVideo } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import {
  BROADCAST_FAMILY,
  DeviceFamily,
  INCIDENT_NEARBY,
  IncidentActionKind,
  IncidentResponse,
  LAMP_FAMILY,
  LED_FAMILY,
  MediaAuditStatus,
  OnlineState,
  type AlarmIncidentDetail,
  type DispatchDetail,
  type FamilyName,
  type NearbyDevice,
} from '@sc/contracts';
import { useMayControl } from '@/auth/may-control';
import { notifyError, notifySuccess } from '@/components/notify';
import { Select } from '@/components/select';
import { useMediaPage } from '@/features/broadcast/media-api';
import { describeTaskDispatch } from '@/features/broadcast/task-format';
import { DispatchPanel } from '@/features/dispatch/dispatch-panel';
import { describeLampDispatch } from '@/features/lighting/api';
import { describeLedDispatch } from '@/features/led/led-dispatch';
import { useLedMediaPage } from '@/features/led/media-api';
import { useIncidentNearby, useIncidentRespond } from './api';

/** The dispatch a response (or a line of the log) opens: its family's panel. */
export interface FollowedDispatch {
  family: FamilyName;
  dispatchId: string;
}

const RADIUS = { radius: INCIDENT_NEARBY.radiusMeters };

// The cameras' player (and hls.js after it) loads when an incident has cameras near it to show.
const LivePlayer = lazy(() => import('@/features/video/live-player').then((m) => ({ default: m.LivePlayer })));

/** The family of each response's log line, for following its dispatch. */
export const RESPONSE_FAMILY: Partial<Record<IncidentActionKind, FamilyName>> = {
  [IncidentActionKind.Lamps]: DeviceFamily.Lamp,
  [IncidentActionKind.Led]: DeviceFamily.Led,
  [IncidentActionKind.Broadcast]: DeviceFamily.Broadcast,
};

const DESCRIBE: Partial<Record<FamilyName, (t: TFunction, detail: DispatchDetail) => string>> = {
  [DeviceFamily.Lamp]: describeLampDispatch,
  [DeviceFamily.Led]: describeLedDispatch,
  [DeviceFamily.Broadcast]: describeTaskDispatch,
};

/** A followed dispatch, live, in its family's words. */
export function ResponseProgress({ followed }: { followed: FollowedDispatch }) {
  return <DispatchPanel family={followed.family} dispatchId={followed.dispatchId} describe={DESCRIBE[followed.family]!} />;
}

/**
 * What the operator can send around the pressed column: its nearest street lights to 100 %, a medium of the LED library
 * on its nearest LED screen, an announcement on its nearest broadcast terminals. Each response lists the devices it would
 * go to (the server works them out again when it is sent) and shows only to those who may send that family's command.
 */
export function IncidentResponses({ incident, onSent }: { incident: AlarmIncidentDetail; onSent: (followed: FollowedDispatch) => void }) {
  const { t } = useTranslation();
  const placed = incident.latitude !== null && incident.longitude !== null;
  const nearby = useIncidentNearby(incident.id, placed);
  const mayLamps = useMayControl(LAMP_FAMILY.family, 'dim');
  const mayLed = useMayControl(LED_FAMILY.family, 'play');
  const mayBroadcast = useMayControl(BROADCAST_FAMILY.family, 'task');
  const respond = useIncidentRespond();
  const send = (response: IncidentResponse, family: FamilyName, mediaId?: number) =>
    respond.mutate(
      { id: incident.id, response, mediaId },
      {
        onSuccess: ({ dispatchId }) => {
          notifySuccess(t('alarmIntercom:nearby.sent'));
          onSent({ family, dispatchId });
        },
        onError: (error) => notifyError(error.message),
      },
    );
  const pending = (response: IncidentResponse) => respond.isPending && respond.variables?.response === response;

  if (!placed) {
    return (
      <Text size="sm" c="dimmed" data-testid="incident-nearby-unplaced">
        {t('alarmIntercom:nearby.noPosition')}
      </Text>
    );
  }
  const near = nearby.data;
  return (
    <Stack gap="xs" data-testid="incident-nearby">
      {/* Only administrators are told of the cameras (video is theirs): the list is empty for the others. */}
      {near && near.cameras.length > 0 && (
        <Paper withBorder p="xs" data-testid="incident-nearby-cameras">
          <Group gap={6} mb={6}>
            <IconVideo size={16} />
            <Text size="sm" fw={500}>
              {t('alarmIntercom:nearby.cameras')}
            </Text>
          </Group>
          <SimpleGrid cols={near.cameras.length > 1 ? 2 : 1} spacing="xs">
            {near.cameras.map((camera) => (
              <Box key={camera.id} h={150} data-testid="incident-camera">
                <Suspense fallback={null}>
                  <LivePlayer
                    camera={camera}
                    status={
                      <Text size="xs" c="gray.3">
                        {t('alarmIntercom:nearby.metres', { distance: camera.distanceMeters })}
                      </Text>
                    }
                  />
                </Suspense>
              </Box>
            ))}
          </SimpleGrid>
        </Paper>
      )}
      {mayLamps && (
        <ResponseBlock icon={<IconBulb size={16} />} title={t('alarmIntercom:nearby.lamps')} devices={near?.lamps} testId="lamps">
          <Button
            size="xs"
            color="yellow"
            loading={pending(IncidentResponse.Lamps)}
            onClick={() => send(IncidentResponse.Lamps, DeviceFamily.Lamp)}
            data-testid="incident-respond-lamps"
          >
            {t('alarmIntercom:nearby.lampsAction')}
          </Button>
        </ResponseBlock>
      )}
      {mayLed && (
        <ResponseBlock icon={<IconDeviceTv size={16} />} title={t('alarmIntercom:nearby.led')} devices={near?.ledScreens} testId="led">
          <LedResponse pending={pending(IncidentResponse.Led)} onSend={(mediaId) => send(IncidentResponse.Led, DeviceFamily.Led, mediaId)} />
        </ResponseBlock>
      )}
      {mayBroadcast && (
        <ResponseBlock icon={<IconSpeakerphone size={16} />} title={t('alarmIntercom:nearby.broadcast')} devices={near?.terminals} testId="broadcast">
          <BroadcastResponse
            pending={pending(IncidentResponse.Broadcast)}
            onSend={(mediaId) => send(IncidentResponse.Broadcast, DeviceFamily.Broadcast, mediaId)}
          />
        </ResponseBlock>
      )}
    </Stack>
  );
}

/** One family's devices near the column (nearest first, with their distance and network state) and its response. */
function ResponseBlock({
  icon,
  title,
  devices,
  testId,
  children,
}: {
  icon: ReactNode;
  title: string;
  devices: NearbyDevice[] | undefined;
  testId: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="xs" data-testid={`incident-nearby-${testId}`}>
      <Stack gap={6}>
        <Group gap={6}>
          {icon}
          <Text size="sm" fw={500}>
            {title}
          </Text>
        </Group>
        {devices && devices.length === 0 && (
          <Text size="sm" c="dimmed" data-testid="incident-nearby-none">
            {t('alarmIntercom:nearby.none', RADIUS)}
          </Text>
        )}
        {devices && devices.length > 0 && (
          <>
            <Group gap={4}>
              {devices.map((device) => (
                <Badge
                  key={device.id}
                  variant="dot"
                  color={device.networkStatus === OnlineState.Online ? 'teal' : 'gray'}
                  title={device.name}
                  tt="none"
                  data-testid="incident-nearby-device"
                  data-code={device.code}
                >
                  {device.code} · {t('alarmIntercom:nearby.metres', { distance: device.distanceMeters })}
                </Badge>
              ))}
            </Group>
            {children}
          </>
        )}
      </Stack>
    </Paper>
  );
}

/** A medium chosen from a library, and the button that sends it. */
function MediumResponse({
  label,
  action,
  options,
  pending,
  onSend,
  testId,
}: {
  label: string;
  action: string;
  options: { value: string; label: string }[] | undefined;
  pending: boolean;
  onSend: (mediaId: number) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const [mediaId, setMediaId] = useState<string | null>(null);
  return (
    <Group gap="xs" align="end" wrap="nowrap">
      <Select
        size="xs"
        label={label}
        placeholder={options && options.length === 0 ? t('alarmIntercom:nearby.noMedia') : undefined}
        searchable
        data={options ?? []}
        value={mediaId}
        onChange={setMediaId}
        style={{ flex: 1 }}
        data-testid={`incident-respond-${testId}-media`}
      />
      <Button
        size="xs"
        disabled={mediaId === null}
        loading={pending}
        onClick={() => onSend(Number(mediaId))}
        data-testid={`incident-respond-${testId}`}
      >
        {action}
      </Button>
    </Group>
  );
}

function LedResponse({ pending, onSend }: { pending: boolean; onSend: (mediaId: number) => void }) {
  const { t } = useTranslation();
  const media = useLedMediaPage({ pageNum: 1, pageSize: 100 });
  return (
    <MediumResponse
      label={t('alarmIntercom:nearby.ledMedia')}
      action={t('alarmIntercom:nearby.ledAction')}
      options={media.data?.list.map((m) => ({ value: String(m.id), label: m.name }))}
      pending={pending}
      onSend={onSend}
      testId="led"
    />
  );
}

function BroadcastResponse({ pending, onSend }: { pending: boolean; onSend: (mediaId: number) => void }) {
  const { t } = useTranslation();
  const media = useMediaPage({ pageNum: 1, pageSize: 100, auditStatus: MediaAuditStatus.Approved });
  return (
    <MediumResponse
      label={t('alarmIntercom:nearby.broadcastMedia')}
      action={t('alarmIntercom:nearby.broadcastAction')}
      options={media.data?.list.map((m) => ({ value: String(m.id), label: m.materialName }))}
      pending={pending}
      onSend={onSend}
      testId="broadcast"
    />
  );
}
