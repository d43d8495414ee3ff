import {
  BREATHING_EFFECTS,
  FLASHING_EFFECTS,
  FaultCode,
  LampStatus,
  LightEffectType,
  OnOffEffect,
  StripLightStatus,
  Zone,
  type OnlineState,
} from './devices';
import type { PageQuery } from './envelope';
import type { LampTelemetryMessage, StripEffectParams, StripZoneState } from './families';

export const STRIP_ZONES: readonly Zone[] = [Zone.Left, Zone.Right];
export const LIGHT_EFFECT_TYPES: readonly LightEffectType[] = [
  LightEffectType.OnOff,
  LightEffectType.Breathing,
  LightEffectType.ExplosiveFlash,
  LightEffectType.SetColour,
];
export const ON_OFF_EFFECTS: readonly OnOffEffect[] = [OnOffEffect.On, OnOffEffect.Off, OnOffEffect.Switch];

/** The effects each type takes (spec section 3); set colour takes a colour instead. */
export const EFFECTS_OF_TYPE: Readonly<Record<LightEffectType, readonly number[]>> = {
  [LightEffectType.OnOff]: ON_OFF_EFFECTS,
  [LightEffectType.Breathing]: BREATHING_EFFECTS,
  [LightEffectType.ExplosiveFlash]: FLASHING_EFFECTS,
  [LightEffectType.SetColour]: [],
};

/** Colours travel as lower-case `#rrggbb`. */
export const STRIP_COLOR_PATTERN = /^#[0-9a-f]{6}$/;

/**
 * The fault code behind each fault label, in the order the spec lists the labels (after synchronizing and normal):
 * not grounded first, voltage low last. A strip with several faults shows every label, in this order.
 */
export const STRIP_FAULT_LABELS: readonly (readonly [FaultCode, StripLightStatus])[] = [
  [FaultCode.NotGrounded, StripLightStatus.NotGrounded],
  [FaultCode.BLedFailure, StripLightStatus.BLightFailure],
  [FaultCode.BFlashes, StripLightStatus.BLightFlashes],
  [FaultCode.TemperatureHigh, StripLightStatus.TemperatureTooHigh],
  [FaultCode.ALedFailure, StripLightStatus.ALightFailure],
  [FaultCode.AFlashes, StripLightStatus.ALightFlashes],
  [FaultCode.VoltageHigh, StripLightStatus.VoltageTooHigh],
  [FaultCode.VoltageLow, StripLightStatus.VoltageLow],
];

/**
 * The strip light status labels of spec section 3, from what is stored: "synchronizing" while the status is -1 (a
 * strip not yet heard from, or one that reports it is synchronizing), one label per active fault code, and "normal"
 * when neither applies. Dispatch and network states are shown beside the labels, not as labels.
 */
export function stripStatusLabels(status: LampStatus, faults: readonly FaultCode[]): StripLightStatus[] {
  const labels: StripLightStatus[] = status === LampStatus.Synchronizing ? [StripLightStatus.Synchronizing] : [];
  for (const [code, label] of STRIP_FAULT_LABELS) if (faults.includes(code)) labels.push(label);
  return labels.length > 0 ? labels : [StripLightStatus.Normal];
}

/** One row of the strip light list (POST /api/light/stripPage). */
export interface StripRow {
  id: number;
  lampName: string;
  clientId: string;
  regionId: number | null;
  regionName: string | null;
  groupId: number | null;
  groupName: string | null;
  gatewayId: string;
  addr: string;
  mac: string;
  /** Reported brightness, percent. */
  bri: number;
  /** The colour of zone L as reported (or R's when L has none), `#rrggbb`; '' before the first report. */
  color: string;
  /** What each zone shows, as last reported; null before the first report. */
  zones: Record<Zone, StripZoneState> | null;
  status: LampStatus;
  networkStatus: OnlineState;
  telemetry: LampTelemetryMessage | null;
  faults: FaultCode[];
  /** stripStatusLabels(status, faults). */
  statusLabels: StripLightStatus[];
  hardwareVersion: string;
  softwareVersion: string;
  reportedAt: string | null;
  /** The strip strategy last distributed to it, if any. */
  strategyId: number | null;
  strategyName: string | null;
}

export interface StripPageQuery extends PageQuery {
  lampName?: string;
  regionId?: number;
  groupId?: number;
  status?: LampStatus;
  networkStatus?: OnlineState;
}

export interface StripAddOrEditRequest {
  id?: number;
  lampName: string;
  clientId: string;
  regionId?: number | null;
  groupId?: number | null;
  gatewayId?: string;
  addr?: string;
  mac?: string;
}

/** POST /api/light/stripEffect: the selected strips, or every strip of a region (and its sub-regions). */
export interface StripEffectRequest {
  ids?: number[];
  regionId?: number;
  type: LightEffectType;
  /** Required for types 1, 2 and 3; not allowed for 6. */
  effect?: number;
  /** Required for type 6, `#rrggbb`; not allowed otherwise. */
  color?: string;
  /** L, R or both. */
  zones: Zone[];
}

/** The ledger action of an effect: on/off effects are their own actions (their own buttons), the others by type. */
export type StripAction = 'on' | 'off' | 'switch' | 'breathing' | 'flash' | 'colour';

export function stripActionOf(type: LightEffectType, effect: number | undefined): StripAction {
  switch (type) {
    case LightEffectType.OnOff:
      return effect === OnOffEffect.On ? 'on' : effect === OnOffEffect.Off ? 'off' : 'switch';
    case LightEffectType.Breathing:
      return 'breathing';
    case LightEffectType.ExplosiveFlash:
      return 'flash';
    case LightEffectType.SetColour:
      return 'colour';
  }
}

/** A zone before it ever ran an effect: dark, white. */
export const DARK_ZONE: StripZoneState = { on: false, type: LightEffectType.OnOff, effect: OnOffEffect.Off, color: '#ffffff' };

/**
 * What the zones show after an effect (the strip applies it per zone; the worker records the same when the strip
 * acknowledges it): on/off lights or darkens the zone (switch inverts it) and keeps its colour; breathing and
 * flashing light the zone with that effect in its colour; set colour lights it steadily in the new colour.
 */
export function applyStripEffect(zones: Readonly<Record<Zone, StripZoneState>> | null, params: StripEffectParams): Record<Zone, StripZoneState> {
  const next: Record<Zone, StripZoneState> = { [Zone.Left]: zones?.L ?? DARK_ZONE, [Zone.Right]: zones?.R ?? DARK_ZONE };
  for (const zone of params.zones) {
    const z = next[zone];
    switch (params.type) {
      case LightEffectType.OnOff: {
        const on = params.effect === OnOffEffect.On ? true : params.effect === OnOffEffect.Off ? false : !z.on;
        next[zone] = { ...z, on, type: LightEffectType.OnOff, effect: on ? OnOffEffect.On : OnOffEffect.Off };
        break;
      }
      case LightEffectType.Breathing:
      case LightEffectType.ExplosiveFlash:
        next[zone] = { ...z, on: true, type: params.type, effect: params.effect ?? null };
        break;
      case LightEffectType.SetColour:
        next[zone] = { on: true, type: LightEffectType.SetColour, effect: null, color: params.color ?? z.color };
        break;
    }
  }
  return next;
}

/** The effect parameters a stored dispatch carries, or null when they are not a valid effect. */
export function stripEffectOf(params: unknown): StripEffectParams | null {
  const p = params as Partial<StripEffectParams> | null;
  if (!p || !LIGHT_EFFECT_TYPES.includes(p.type as LightEffectType)) return null;
  if (!Array.isArray(p.zones) || p.zones.length === 0 || !p.zones.every((z) => STRIP_ZONES.includes(z))) return null;
  if (p.type === LightEffectType.SetColour)
    return typeof p.color === 'string' && STRIP_COLOR_PATTERN.test(p.color) ? { type: p.type, color: p.color, zones: p.zones } : null;
  return EFFECTS_OF_TYPE[p.type as LightEffectType].includes(p.effect as number)
    ? { type: p.type as LightEffectType, effect: p.effect, zones: p.zones }
    : null;
}
