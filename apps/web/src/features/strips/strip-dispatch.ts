import type { TFunction } from 'i18next';
import { stripActionOf, type DispatchDetail, type LightEffectType, type StripEffectParams } from '@sc/contracts';

/** "Breathing, effect 3 · zone L, R" for an effect (the dispatch panel's action label too). */
export function describeEffect(
  t: TFunction,
  params: Partial<StripEffectParams>,
  action = stripActionOf(params.type as LightEffectType, params.effect),
): string {
  const what = t(`strip:action.${action}`, { effect: params.effect, color: params.color });
  return params.zones?.length ? `${what} · ${t('strip:action.zones', { zones: params.zones.join(', ') })}` : what;
}

export function describeStripDispatch(t: TFunction, detail: DispatchDetail): string {
  if (detail.action === 'schedule') return t('strip:action.schedule', { name: (detail.params as { name?: string } | null)?.name ?? '' });
  return describeEffect(t, detail.params as Partial<StripEffectParams>);
}
