import { Suspense, lazy, useState } from 'react';
import { Button, Checkbox, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Select } from '@/components/select';
import { IconSparkles } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  Button as ButtonPermission,
  EFFECTS_OF_TYPE,
  LIGHT_EFFECT_TYPES,
  LightEffectType,
  OnOffEffect,
  STRIP_ZONES,
  stripActionOf,
  type StripEffectParams,
  type Zone,
} from '@sc/contracts';
import { confirmCommand } from '@/components/confirm';
import { notifyError, notifySuccess } from '@/components/notify';
import { useButton } from '@/auth/session-store';
import { useStripEffect } from './api';

const ColorField = lazy(() => import('./color-field').then((m) => ({ default: m.ColorField })));

/** The effect control: type, the effect of that type (or a colour for type 6), zones, then Run on the selected strips. */
export function StripEffectCard({ selected, onDispatched }: { selected: readonly number[]; onDispatched: (dispatchId: string) => void }) {
  const { t } = useTranslation();
  const run = useStripEffect();
  const canOpen = useButton(ButtonPermission.OpenLamp);
  const canClose = useButton(ButtonPermission.CloseLamp);
  const canOther = useButton(ButtonPermission.OpenAndClose);
  const [type, setType] = useState<LightEffectType>(LightEffectType.Breathing);
  const [effect, setEffect] = useState<number>(1);
  const [color, setColor] = useState('#1366ec');
  const [zones, setZones] = useState<Zone[]>([...STRIP_ZONES]);

  const chooseType = (next: LightEffectType) => {
    setType(next);
    setEffect(EFFECTS_OF_TYPE[next][0] ?? 0);
  };
  const params: StripEffectParams = type === LightEffectType.SetColour ? { type, color: color.toLowerCase(), zones } : { type, effect, zones };
  const action = stripActionOf(type, params.effect);
  const allowed = action === 'on' ? canOpen : action === 'off' ? canClose : canOther;
  if (!canOpen && !canClose && !canOther) return null;

  const effectLabel = (value: number) =>
    type === LightEffectType.OnOff ? t(`strip:onOff.${value as OnOffEffect}`) : t('strip:effectNumber', { effect: value });

  const send = async () => {
    if (selected.length === 0) return notifyError(t('strip:control.nothingSelected'));
    const detail = t('strip:control.confirm', {
      effect: t(`strip:action.${action}`, { effect: params.effect, color: params.color }),
      zones: zones.join(', '),
      count: selected.length,
    });
    if (!(await confirmCommand(detail, { confirm: t('strip:control.send'), testId: 'strip-effect-confirm' }))) return;
    run.mutate(
      { ids: [...selected], ...params },
      {
        onSuccess: ({ dispatchId }) => {
          notifySuccess(t('messages:instructionSent'));
          onDispatched(dispatchId);
        },
      },
    );
  };

  return (
    <Paper withBorder p="md" radius="md" data-testid="strip-effect">
      <Stack gap="sm">
        <Title order={5}>{t('strip:control.title')}</Title>
        <Group grow wrap="wrap" align="flex-end">
          <Select
            label={t('strip:control.type')}
            data={LIGHT_EFFECT_TYPES.map((v) => ({ value: String(v), label: `${v} · ${t(`strip:effectType.${v}`)}` }))}
            value={String(type)}
            onChange={(v) => v && chooseType(Number(v) as LightEffectType)}
            allowDeselect={false}
            data-testid="strip-effect-type"
          />
          {type === LightEffectType.SetColour ? (
            <Suspense fallback={null}>
              <ColorField label={t('strip:control.color')} value={color} onChange={setColor} />
            </Suspense>
          ) : (
            <Select
              label={t('strip:control.effect')}
              data={EFFECTS_OF_TYPE[type].map((v) => ({ value: String(v), label: effectLabel(v) }))}
              value={String(effect)}
              onChange={(v) => v && setEffect(Number(v))}
              allowDeselect={false}
              data-testid="strip-effect-effect"
            />
          )}
        </Group>
        <Checkbox.Group label={t('strip:control.zones')} value={zones} onChange={(v) => setZones(STRIP_ZONES.filter((z) => v.includes(z)))}>
          <Group gap="md" mt={4}>
            {STRIP_ZONES.map((zone) => (
              <Checkbox key={zone} value={zone} label={t(`strip:zone.${zone}`)} data-testid={`strip-effect-zone-${zone}`} />
            ))}
          </Group>
        </Checkbox.Group>
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {t('strip:list.selected', { count: selected.length })}
          </Text>
          <Button
            leftSection={<IconSparkles size={16} />}
            onClick={() => void send()}
            disabled={!allowed || zones.length === 0}
            loading={run.isPending}
            data-testid="strip-effect-send"
          >
            {t('strip:control.send')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
