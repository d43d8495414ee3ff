import type { FromSchema } from 'json-schema-to-ts';
import { WEEKDAYS } from '../devices';
import { AD_ITEM_SECONDS, AD_NAME_MAX, AD_ZONE_ITEMS_MAX } from '../signage-ads';
import { AD_LOOP_INTERVAL, AD_ON_DEMAND, AD_PLAN_ADS_MAX } from '../signage-plans';
import { AdPlayMode, LIMITS, PublishType, ScreenOrientation } from '../statuses';
import { CLOCK_SCHEMA, DATE_SCHEMA, TIMESTAMP_SCHEMA, type JsonSchema } from './declaration';

// What a floor screen is given to play (an ad plan, the `publish` command, declared with receipts: the player fetches
// the plan's files, saying how far it got, and acks once every file is in and checked) and what it says it played
// (`event`: one per run of an ad, the proof of play).

const PLAN_ID_SCHEMA = { type: 'string', minLength: 1, maxLength: 64, description: 'The ad plan publication.' } as const satisfies JsonSchema;
const MATERIAL_ID_SCHEMA = { type: 'integer', minimum: 1 } as const satisfies JsonSchema;

/** One ad of a plan, as the player draws it (the console's AdRequest, with what the player needs only). */
const PLAN_AD_SCHEMA = {
  type: 'object',
  required: ['adId', 'name', 'orientation', 'totalDuration', 'zones', 'music'],
  additionalProperties: false,
  properties: {
    adId: { type: 'integer', minimum: 1 },
    name: { type: 'string', minLength: 1, maxLength: AD_NAME_MAX },
    orientation: { type: 'string', enum: [ScreenOrientation.Portrait, ScreenOrientation.Landscape] },
    totalDuration: { type: 'integer', minimum: LIMITS.adDurationSeconds.min, maximum: LIMITS.adDurationSeconds.max, description: 'Seconds.' },
    zones: {
      type: 'array',
      minItems: LIMITS.adSplitScreens.min,
      maxItems: LIMITS.adSplitScreens.max,
      description: 'The zones in reading order (the layout of libs/contracts adLayout for their count), each a list looped through the ad.',
      items: {
        type: 'array',
        minItems: 1,
        maxItems: AD_ZONE_ITEMS_MAX,
        items: {
          type: 'object',
          required: ['materialId', 'seconds'],
          additionalProperties: false,
          properties: { materialId: MATERIAL_ID_SCHEMA, seconds: { type: 'integer', minimum: AD_ITEM_SECONDS.min, maximum: AD_ITEM_SECONDS.max } },
        },
      },
    },
    music: { type: 'array', maxItems: AD_ZONE_ITEMS_MAX, items: MATERIAL_ID_SCHEMA, description: 'Background music, in order.' },
  },
} as const satisfies JsonSchema;

/** One file of a plan: where the player fetches it, and how it checks it. */
const PLAN_FILE_SCHEMA = {
  type: 'object',
  required: ['materialId', 'url', 'sha256', 'bytes'],
  additionalProperties: false,
  properties: {
    materialId: MATERIAL_ID_SCHEMA,
    url: { type: 'string', maxLength: 2048, description: 'A short-lived signed HTTP(S) link to the file.' },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'The file is used only if it matches.' },
    bytes: { type: 'integer', minimum: 1, maximum: 536_870_912 },
  },
} as const satisfies JsonSchema;

/** The `publish` command's params: an ad plan the player keeps (by its plan id) and plays in its periods. */
export const SIGNAGE_PUBLISH_SCHEMA = {
  type: 'object',
  required: ['planId', 'name', 'publishType', 'playMode', 'timeZone', 'schedule', 'ads', 'files'],
  additionalProperties: false,
  properties: {
    planId: PLAN_ID_SCHEMA,
    name: { type: 'string', minLength: 1, maxLength: 64 },
    publishType: {
      type: 'string',
      enum: [PublishType.Append, PublishType.Replace, PublishType.ReplaceAfterDownload, PublishType.Clear],
      description:
        '`append`: kept beside its other plans; `replace`: its other plans are dropped once it has the command; ' +
        '`replaceAfterDownload`: dropped only once every file is in; `clear`: every plan dropped (no ads, no files).',
    },
    playMode: { type: 'string', enum: [AdPlayMode.NormalLoop, AdPlayMode.OnDemand, AdPlayMode.LimitedLoopInterval] },
    playLimitCount: { type: 'integer', minimum: 1, maximum: AD_ON_DEMAND.maxPlays, description: 'On demand and limited loop: runs at most.' },
    playIntervalSeconds: {
      type: 'integer',
      minimum: AD_LOOP_INTERVAL.min,
      maximum: AD_LOOP_INTERVAL.max,
      description: 'Limited loop: pause between runs.',
    },
    onDemandType: { const: AD_ON_DEMAND.type },
    timeZone: { type: 'string', maxLength: 64, description: "The IANA time zone of the player's clock (its region's)." },
    schedule: {
      type: 'object',
      required: ['startDate', 'endDate', 'allDay', 'weekdays'],
      additionalProperties: false,
      properties: {
        startDate: DATE_SCHEMA,
        endDate: { ...DATE_SCHEMA, description: 'The last day it plays (included): its expiry.' },
        allDay: { type: 'boolean' },
        startTime: { anyOf: [CLOCK_SCHEMA, { type: 'null' }] },
        endTime: { anyOf: [{ ...CLOCK_SCHEMA, description: "'00:00' is midnight at the day's end." }, { type: 'null' }] },
        weekdays: {
          type: 'array',
          maxItems: 7,
          items: { type: 'string', enum: [...WEEKDAYS] },
          description: "'1' Monday to '7' Sunday; none: every day.",
        },
      },
    },
    ads: { type: 'array', maxItems: AD_PLAN_ADS_MAX, items: PLAN_AD_SCHEMA, description: 'Played in this order; none with `clear`.' },
    files: { type: 'array', maxItems: 500, items: PLAN_FILE_SCHEMA, description: 'Every material the ads use, once each.' },
  },
} as const satisfies JsonSchema;

/** `event` of a floor screen: it played an ad of a plan from `ts` for `seconds` (one run of the ad): proof of play. */
export const SIGNAGE_PLAY_EVENT_SCHEMA = {
  title: 'SignagePlay',
  type: 'object',
  required: ['ts', 'planId', 'adId', 'seconds'],
  properties: {
    ts: { ...TIMESTAMP_SCHEMA, description: 'When the run began.' },
    planId: PLAN_ID_SCHEMA,
    adId: { type: 'integer', minimum: 1 },
    seconds: { type: 'integer', minimum: 1, maximum: 86_400, description: 'How long it played (a run cut short says so).' },
  },
} as const satisfies JsonSchema;

export type SignagePublishParams = FromSchema<typeof SIGNAGE_PUBLISH_SCHEMA>;
export type SignagePlanAd = SignagePublishParams['ads'][number];
export type SignagePlayEvent = FromSchema<typeof SIGNAGE_PLAY_EVENT_SCHEMA>;
