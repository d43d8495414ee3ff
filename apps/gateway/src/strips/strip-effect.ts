import {
  EFFECTS_OF_TYPE,
  LIGHT_EFFECT_TYPES,
  LightEffectType,
  STRIP_ZONES,
  stripActionOf,
  type StripAction,
  type StripEffectParams,
  type Zone,
} from '@sc/contracts';
import { AppException } from '../common/app-exception';

const COLOR = /^#[0-9a-fA-F]{6}$/;

export interface CheckedEffect {
  action: StripAction;
  params: StripEffectParams;
}

/**
 * The effect of spec section 3, exactly: type 1 with -1, -2 or -3, type 2 with 1 to 7, type 3 with 8 to 15, type 6
 * with a colour and no effect; zones L, R or both. Anything else is refused with its own translated message.
 */
export function checkStripEffect(body: { type?: unknown; effect?: unknown; color?: unknown; zones?: unknown }): CheckedEffect {
  const type = body.type as LightEffectType;
  if (!LIGHT_EFFECT_TYPES.includes(type)) throw AppException.badRequest('effectTypeInvalid');
  const zones = body.zones;
  if (
    !Array.isArray(zones) ||
    zones.length === 0 ||
    zones.length > STRIP_ZONES.length ||
    new Set(zones).size !== zones.length ||
    !zones.every((z) => STRIP_ZONES.includes(z as Zone))
  )
    throw AppException.field('zones', 'zonesInvalid');
  const sortedZones = STRIP_ZONES.filter((z) => zones.includes(z));
  if (type === LightEffectType.SetColour) {
    if (body.effect !== undefined && body.effect !== null) throw AppException.field('effect', 'effectNotForColour');
    if (body.color === undefined || body.color === null || body.color === '') throw AppException.field('color', 'pleaseSelect');
    if (typeof body.color !== 'string' || !COLOR.test(body.color)) throw AppException.field('color', 'colorInvalid');
    return { action: stripActionOf(type, undefined), params: { type, color: body.color.toLowerCase(), zones: sortedZones } };
  }
  if (body.color !== undefined && body.color !== null) throw AppException.field('color', 'colourOnlyForSetColour');
  if (body.effect === undefined || body.effect === null || body.effect === '') throw AppException.field('effect', 'pleaseSelect');
  const effects = EFFECTS_OF_TYPE[type];
  const effect = body.effect as number;
  if (!effects.includes(effect)) throw AppException.field('effect', 'effectInvalid', { type, effects: effects.join(', ') });
  return { action: stripActionOf(type, effect), params: { type, effect, zones: sortedZones } };
}
