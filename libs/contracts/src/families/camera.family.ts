import type { FromSchema } from 'json-schema-to-ts';
import { DeviceType } from '../devices';
import { DeviceFamily, MqttService } from '../mqtt';
import { CameraAccess, type CameraRow } from '../video';
import { defineFamily, type JsonSchema, type LiveFieldsOf } from './declaration';

/**
 * `state` of video equipment (retained; sent again at least every heartbeat): it is up, and whether its stream took
 * the login the console keeps. The video worker's probe takes the same for every camera with a stream address (an
 * RTSP DESCRIBE with the stored login, every VIDEO_PROBE_INTERVAL_MS); an edge controller on the pole may publish it
 * too, for equipment the probe cannot reach.
 */
export const CAMERA_STATE_SCHEMA = {
  title: 'CameraState',
  type: 'object',
  required: ['online'],
  properties: {
    online: { const: true },
    access: {
      type: 'string',
      enum: [CameraAccess.Ok, CameraAccess.Unauthorized, CameraAccess.NoStream],
      description: 'ok: its stream opens with the stored login; unauthorized: it refused that login; no-stream: no stream at that address.',
    },
  },
} as const satisfies JsonSchema;

/**
 * Video equipment (spec "Video monitoring": cameras, recorders, checkpoint, emergency and display equipment of the
 * video device categories). Its worker (worker-video) probes each one for its online state and turns its RTSP stream
 * into HLS for the browsers watching it (docs/video.md). It takes no commands through the ledger.
 *
 * Spec section 6: Real video admin, editor; its children admin only: its pages and events are administrators'.
 */
export const CAMERA_FAMILY = defineFamily<CameraRow>()({
  family: DeviceFamily.Camera,
  title: 'Camera',
  deviceType: DeviceType.VideoEquipment,
  table: 'camera',
  worker: MqttService.WorkerVideo,
  queue: null,
  job: null,
  actions: {},
  eventRoles: [],
  liveFields: ['networkStatus', 'access', 'reportedAt'],
  reports: { state: CAMERA_STATE_SCHEMA },
  commands: {},
  // The probe itself takes a camera offline at its first unanswered ask (every 30 s); this heartbeat is the backstop
  // for the probe being gone (the video worker down): nothing heard of a camera for three of them (6 minutes), offline.
  heartbeatSeconds: 120,
});

export type CameraStateMessage = FromSchema<typeof CAMERA_STATE_SCHEMA>;
/** The video equipment fields that change live, as DeviceStateChanged carries them. */
export type CameraLiveFields = LiveFieldsOf<typeof CAMERA_FAMILY>;
