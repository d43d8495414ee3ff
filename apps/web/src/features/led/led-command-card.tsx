import { useState } from 'react';
import { Button, Divider, Group, Paper, SegmentedControl, Slider, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, LED_BOUNDS, ScreenState, type LampControlResult, type LedSelection } from '@sc/contracts';
import { useButton } from '@/auth/session-store';
import { AreaCascader, areaPathLabel, useAreaTree } from '@/components/area-cascader';
import { BoundedNumberInput, numberFieldError } from '@/components/bounded-number-input';
import { notifyError, notifySuccess } from '@/components/notify';
import { confirmTargetCommand } from '@/features/dispatch/confirm-target';
import { currentLanguage } from '@/i18n';
import { LED_PAGE_PATH, useLedCommands, useLedDaylight } from './api';

type Level = number | string;
type LevelKind = 'brightness' | 'volume';

/** What an empty level says ('Brightness cannot be empty', 'The volume cannot be empty'); else its bounds' problem. */
function levelError(t: ReturnType<typeof useTranslation>['t'], kind: LevelKind, value: Level): string | null {
  if (value === '' || value === null || value === undefined) return t(kind === 'brightness' ? 'messages:brightnessEmpty' : 'messages:volumeEmpty');
  return numberFieldError(t, value, LED_BOUNDS[kind]);
}

/** A percent as a slider and a number beside it (the number may be emptied; the slider then rests at 0). */
function LevelField({
  kind,
  label,
  value,
  error,
  onChange,
  testId,
}: {
  kind: LevelKind;
  label: string;
  value: Level;
  error?: string | null;
  onChange: (value: Level) => void;
  testId: string;
}) {
  const bounds = LED_BOUNDS[kind];
  return (
    <Stack gap={4}>
      <Group align="flex-end" wrap="nowrap">
        <Stack gap={4} style={{ flex: 1 }}>
          <Text size="sm" fw={500}>
            {label}
          </Text>
          <Slider
            min={bounds.min}
            max={bounds.max}
            value={typeof value === 'number' ? value : Number(value) || 0}
            onChange={onChange}
            label={(v) => `${v} %`}
            thumbLabel={label}
            data-testid={`${testId}-slider`}
          />
        </Stack>
        <BoundedNumberInput
          bounds={bounds}
          aria-label={label}
          value={value}
          onChange={onChange}
          suffix=" %"
          w={90}
          name={kind}
          data-testid={`${testId}-input`}
        />
      </Group>
      {error && (
        <Text c="red" size="xs" data-testid={`${testId}-error`}>
          {error}
        </Text>
      )}
    </Stack>
  );
}

/**
 * Commands to the selected screens or to every screen of a region: brightness, volume and time sync (Edit button),
 * bright or black and reboot (Open and close), each confirmed with the number of screens it reaches, then followed
 * beside; and the daylight rule (Edit).
 */
export function LedCommandCard({ selected, onDispatched }: { selected: readonly number[]; onDispatched: (dispatchId: string) => void }) {
  const { t } = useTranslation();
  const { tree } = useAreaTree();
  const canEdit = useButton(ButtonPermission.Edit);
  const canSwitch = useButton(ButtonPermission.OpenAndClose);
  const commands = useLedCommands();
  const daylight = useLedDaylight();
  const [mode, setMode] = useState<'screens' | 'region'>('screens');
  const [regionId, setRegionId] = useState<number | null>(null);
  const [levels, setLevels] = useState<{ brightness: Level; volume: Level; day: Level; night: Level }>({
    brightness: 100,
    volume: 50,
    day: 100,
    night: 30,
  });
  const [errors, setErrors] = useState<Partial<Record<keyof typeof levels, string | null>>>({});
  if (!canEdit && !canSwitch) return null;

  /** The screens or the region picked, confirmed for `action`; null when nothing is picked or the operator cancels. */
  const target = async (action: string, testId: string): Promise<LedSelection | null> => {
    if (mode === 'screens' ? selected.length === 0 : regionId === null) {
      notifyError(t(mode === 'screens' ? 'led:command.nothingSelected' : 'led:command.noRegion'));
      return null;
    }
    const to: LedSelection = mode === 'screens' ? { ids: [...selected] } : { regionId: regionId! };
    const ok = await confirmTargetCommand(to.ids ? { ids: to.ids } : { regionId: to.regionId! }, {
      listPath: LED_PAGE_PATH,
      devices: (count) => t('led:command.confirmScreens', { action, count }),
      region: (count) => t('led:command.confirmRegion', { action, count, region: areaPathLabel(tree, regionId, currentLanguage()) }),
      testId,
    });
    return ok ? to : null;
  };
  const dispatched = ({ dispatchId }: LampControlResult) => {
    notifySuccess(t('messages:instructionSent'));
    onDispatched(dispatchId);
  };

  const sendLevel = async (kind: LevelKind) => {
    const error = levelError(t, kind, levels[kind]);
    setErrors({ ...errors, [kind]: error });
    if (error) return;
    const value = Number(levels[kind]);
    const action = t(kind === 'brightness' ? 'led:command.brightnessTo' : 'led:command.volumeTo', { value });
    const to = await target(action, `led-${kind}-confirm`);
    if (!to) return;
    if (kind === 'brightness') commands.brightness.mutate({ ...to, brightness: value }, { onSuccess: dispatched });
    else commands.volume.mutate({ ...to, volume: value }, { onSuccess: dispatched });
  };
  const sendScreen = async (screen: ScreenState) => {
    const to = await target(t(screen === ScreenState.Black ? 'led:command.black' : 'led:command.bright'), 'led-screen-confirm');
    if (to) commands.screen.mutate({ ...to, screen }, { onSuccess: dispatched });
  };
  const sendSimple = async (kind: 'reboot' | 'syncTime') => {
    const to = await target(t(`led:command.${kind}`), `led-${kind}-confirm`);
    if (to) commands[kind].mutate(to, { onSuccess: dispatched });
  };
  const sendDaylight = async (enabled: boolean) => {
    if (enabled) {
      const next = { day: levelError(t, 'brightness', levels.day), night: levelError(t, 'brightness', levels.night) };
      setErrors({ ...errors, ...next });
      if (next.day || next.night) return;
    }
    const [day, night] = [Number(levels.day), Number(levels.night)];
    const to = await target(enabled ? t('led:daylight.applyAction', { day, night }) : t('led:daylight.removeAction'), 'led-daylight-confirm');
    if (!to) return;
    daylight.mutate(enabled ? { ...to, enabled, dayBrightness: day, nightBrightness: night } : { ...to, enabled }, {
      onSuccess: ({ screens }) => notifySuccess(t(enabled ? 'led:daylight.applied' : 'led:daylight.removed', { count: screens })),
    });
  };
  const level = (kind: keyof typeof levels, label: string, testId: string) => (
    <LevelField
      kind={kind === 'volume' ? 'volume' : 'brightness'}
      label={label}
      value={levels[kind]}
      error={errors[kind]}
      onChange={(value) => setLevels({ ...levels, [kind]: value })}
      testId={testId}
    />
  );

  return (
    <Paper withBorder p="md" radius="md" data-testid="led-commands">
      <Stack gap="sm">
        <Title order={5}>{t('led:command.title')}</Title>
        <SegmentedControl
          value={mode}
          onChange={(v) => setMode(v as 'screens' | 'region')}
          data={[
            { value: 'screens', label: t('led:command.targetScreens') },
            { value: 'region', label: t('led:command.targetRegion') },
          ]}
          aria-label={t('led:command.target')}
          data-testid="led-target-mode"
        />
        {mode === 'region' && <AreaCascader label={t('led:fields.region')} value={regionId} onChange={setRegionId} data-testid="led-target-region" />}
        {canEdit && (
          <>
            {level('brightness', t('led:fields.brightness'), 'led-brightness')}
            <Button onClick={() => void sendLevel('brightness')} loading={commands.brightness.isPending} data-testid="led-brightness-send">
              {t('led:command.setBrightness')}
            </Button>
            {level('volume', t('led:fields.volume'), 'led-volume')}
            <Button onClick={() => void sendLevel('volume')} loading={commands.volume.isPending} data-testid="led-volume-send">
              {t('led:command.setVolume')}
            </Button>
          </>
        )}
        <Group grow>
          {canSwitch && (
            <>
              <Button
                variant="light"
                onClick={() => void sendScreen(ScreenState.Bright)}
                loading={commands.screen.isPending}
                data-testid="led-bright"
              >
                {t('led:command.bright')}
              </Button>
              <Button
                variant="light"
                color="gray"
                onClick={() => void sendScreen(ScreenState.Black)}
                loading={commands.screen.isPending}
                data-testid="led-black"
              >
                {t('led:command.black')}
              </Button>
            </>
          )}
        </Group>
        <Group grow>
          {canSwitch && (
            <Button
              variant="light"
              color="orange"
              onClick={() => void sendSimple('reboot')}
              loading={commands.reboot.isPending}
              data-testid="led-reboot"
            >
              {t('led:command.reboot')}
            </Button>
          )}
          {canEdit && (
            <Button variant="light" onClick={() => void sendSimple('syncTime')} loading={commands.syncTime.isPending} data-testid="led-sync-time">
              {t('led:command.syncTime')}
            </Button>
          )}
        </Group>
        {canEdit && (
          <>
            <Divider />
            <Title order={5}>{t('led:daylight.title')}</Title>
            <Text size="sm" c="dimmed">
              {t('led:daylight.explain')}
            </Text>
            {level('day', t('led:daylight.day'), 'led-daylight-day')}
            {level('night', t('led:daylight.night'), 'led-daylight-night')}
            <Group grow>
              <Button onClick={() => void sendDaylight(true)} loading={daylight.isPending} data-testid="led-daylight-apply">
                {t('led:daylight.apply')}
              </Button>
              <Button variant="default" onClick={() => void sendDaylight(false)} loading={daylight.isPending} data-testid="led-daylight-remove">
                {t('led:daylight.remove')}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}
