import { Badge, ColorSwatch, Group, Stack, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LightEffectType, StripLightStatus, Zone, type StripRow, type StripZoneState } from '@sc/contracts';

const LABEL_COLOR: Record<StripLightStatus, string> = {
  [StripLightStatus.Synchronizing]: 'blue',
  [StripLightStatus.Normal]: 'teal',
  [StripLightStatus.NotGrounded]: 'red',
  [StripLightStatus.BLightFailure]: 'red',
  [StripLightStatus.BLightFlashes]: 'orange',
  [StripLightStatus.TemperatureTooHigh]: 'red',
  [StripLightStatus.ALightFailure]: 'red',
  [StripLightStatus.ALightFlashes]: 'orange',
  [StripLightStatus.VoltageTooHigh]: 'orange',
  [StripLightStatus.VoltageLow]: 'orange',
};

/** The strip light status labels of spec section 3. */
export function StripLabels({ labels }: { labels: readonly StripLightStatus[] }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} data-testid="strip-labels" data-labels={labels.join(' ')}>
      {labels.map((label) => (
        <Badge key={label} color={LABEL_COLOR[label]} variant="light" size="sm">
          {t(`strip:labels.${label}`)}
        </Badge>
      ))}
    </Group>
  );
}

/** What one zone shows, in words. */
export function zoneText(t: (key: string, options?: Record<string, unknown>) => string, zone: StripZoneState): string {
  if (!zone.on) return t('strip:zoneDark');
  if (zone.type === LightEffectType.Breathing || zone.type === LightEffectType.ExplosiveFlash)
    return `${t(`strip:effectType.${zone.type}`)} ${zone.effect ?? ''}`.trim();
  if (zone.type === LightEffectType.SetColour) return t('strip:effectType.6');
  return t('strip:onOff.-1');
}

/** Zones L and R: a swatch in the zone's colour (dimmed when dark) and what it runs. */
export function StripZones({ strip }: { strip: StripRow }) {
  const { t } = useTranslation();
  if (!strip.zones) return <Text c="dimmed">—</Text>;
  return (
    <Stack gap={2}>
      {[Zone.Left, Zone.Right].map((zone) => {
        const state = strip.zones![zone];
        return (
          <Tooltip key={zone} label={`${t(`strip:zone.${zone}`)}: ${state.color}`}>
            <Group
              gap={6}
              wrap="nowrap"
              data-testid={`strip-zone-${zone}`}
              data-on={state.on}
              data-type={state.type}
              data-effect={state.effect ?? ''}
              data-color={state.color}
            >
              <Text size="xs" fw={600} w={12}>
                {zone}
              </Text>
              <ColorSwatch color={state.color} size={14} style={{ opacity: state.on ? 1 : 0.25 }} />
              <Text size="xs" style={{ whiteSpace: 'nowrap' }}>
                {zoneText(t, state)}
              </Text>
            </Group>
          </Tooltip>
        );
      })}
    </Stack>
  );
}
