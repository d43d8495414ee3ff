import type { FromSchema } from 'json-schema-to-ts';
import { ALARM_LEVELS, type AlarmColumnRow } from '../alarm-columns';
import { DeviceType } from '../devices';
import { DeviceFamily, MqttService } from '../mqtt';
import { JobName, QueueName } from '../queues';
import { ALARM_EVENT_ROLES, Button } from '../roles';
import { NO_PARAMS_SCHEMA, TIMESTAMP_SCHEMA, VERSION_SCHEMA, VOLUME_SCHEMA, defineFamily, type JsonSchema, type LiveFieldsOf } from './declaration';

/** `state` of an alarm column (retained; sent again at least every heartbeat): its versions, address and volume. */
export const ALARM_STATE_SCHEMA = {
  title: 'AlarmColumnState',
  type: 'object',
  required: ['online'],
  properties: {
    online: { const: true },
    swver: VERSION_SCHEMA,
    hwver: VERSION_SCHEMA,
    ipAddress: { type: 'string', maxLength: 45, description: 'Its network address (the intercom reaches it there).' },
    volume: { ...VOLUME_SCHEMA, description: "Its speaker's volume, percent." },
  },
} as const satisfies JsonSchema;

/**
 * `event` of an alarm column (QoS 1, not retained): someone pressed its button. The alarm worker records every press
 * (`alarm_press`) and announces it (AlarmPressed) so the consoles see it at once.
 */
export const ALARM_PRESS_SCHEMA = {
  title: 'AlarmPress',
  type: 'object',
  required: ['ts', 'kind', 'level'],
  properties: {
    ts: TIMESTAMP_SCHEMA,
    kind: { const: 'press', description: 'A press of the alarm button.' },
    level: { type: 'integer', enum: [...ALARM_LEVELS], description: 'The alarm level (spec alarm options): 0 one, 1 two, 2 three.' },
  },
} as const satisfies JsonSchema;

/** The params of `volume`. */
export const ALARM_VOLUME_SCHEMA = {
  type: 'object',
  required: ['volume'],
  additionalProperties: false,
  properties: { volume: VOLUME_SCHEMA },
} as const satisfies JsonSchema;

/**
 * One-key alarm columns (device type 7, spec "one-key alarm"): pole-mounted help points with an alarm button, a
 * speaker and a SIP intercom. Their worker (worker-alarm) keeps their state and records their presses; the console
 * reboots them and sets their volume through the command ledger.
 *
 * Spec section 2 shows /alarmManage always; it gates no alarm route: administrators and editors run them, as the
 * other pole devices. Rebooting is Open and close and the volume a setting (Edit), as for the screens.
 */
export const ALARM_FAMILY = defineFamily<AlarmColumnRow>()({
  family: DeviceFamily.Alarm,
  title: 'Alarm column',
  deviceType: DeviceType.OneKeyAlarm,
  table: 'alarm_column',
  worker: MqttService.WorkerAlarm,
  queue: QueueName.AlarmColumns,
  job: JobName.DistributeAlarmDispatch,
  actions: { reboot: Button.OpenAndClose, volume: Button.Edit },
  eventRoles: ALARM_EVENT_ROLES,
  liveFields: ['networkStatus', 'ipAddress', 'swver', 'hwver', 'volume', 'reportedAt', 'lastPressAt', 'lastPressLevel', 'pressCount'],
  reports: { state: ALARM_STATE_SCHEMA, event: ALARM_PRESS_SCHEMA },
  commands: {
    reboot: { description: 'Restart the column; it reports its state again once it is back.', params: NO_PARAMS_SCHEMA },
    volume: { description: "Set its speaker's volume, percent.", params: ALARM_VOLUME_SCHEMA },
  },
  heartbeatSeconds: 60,
});

export type AlarmStateMessage = FromSchema<typeof ALARM_STATE_SCHEMA>;
export type AlarmPressMessage = FromSchema<typeof ALARM_PRESS_SCHEMA>;
export type AlarmVolumeParams = FromSchema<typeof ALARM_VOLUME_SCHEMA>;
/** The alarm column fields devices change, as DeviceStateChanged carries them. */
export type AlarmLiveFields = LiveFieldsOf<typeof ALARM_FAMILY>;
