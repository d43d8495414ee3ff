import { useState } from 'react';
import { Button, Group, Paper, Slider, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NUMBER_BOUNDS, SIGNAGE_FAMILY } from '@sc/contracts';
import { useButton } from '@/auth/session-store';
import { BoundedNumberInput, numberFieldError } from '@/components/bounded-number-input';
import { confirmCommand } from '@/components/confirm';
import { notifyError, notifySuccess } from '@/components/notify';
import { useSignageCommand, useSignageVolume, type SignagePlainCommand } from './api';

/** What each command says once the server took it (spec section 8's success messages). */
const SENT: Record<SignagePlainCommand | 'volume', string> = {
  volume: 'signage:feedback.volumeSet',
  mute: 'signage:feedback.muted',
  unmute: 'signage:feedback.unmuted',
  reboot: 'signage:feedback.rebootSent',
};

/**
 * Commands to the selected floor screens: the volume (a slider with its number; 'The volume cannot be empty'), mute and
 * unmute (Edit), and reboot (Open and close), each confirmed with the number of players it reaches; the dispatch is
 * then followed beside.
 */
export function SignageCommandCard({ selected, onDispatched }: { selected: readonly number[]; onDispatched: (dispatchId: string) => void }) {
  const { t } = useTranslation();
  const canSound = useButton(SIGNAGE_FAMILY.actions.volume);
  const canReboot = useButton(SIGNAGE_FAMILY.actions.reboot);
  const volume = useSignageVolume();
  const command = useSignageCommand();
  const [value, setValue] = useState<number | string>('');
  const [error, setError] = useState<string | undefined>();
  if (!canSound && !canReboot) return null;

  const sent =
    (what: SignagePlainCommand | 'volume') =>
    ({ dispatchId }: { dispatchId: string }) => {
      notifySuccess(`${t(SENT[what])}. ${t('messages:instructionSent')}`);
      onDispatched(dispatchId);
    };

  const sendVolume = async () => {
    const problem = value === '' ? t('messages:volumeEmpty') : numberFieldError(t, value, NUMBER_BOUNDS.volume);
    setError(problem ?? undefined);
    if (problem) return;
    if (selected.length === 0) return notifyError(t('signage:commands.nothingSelected'));
    const detail = t('signage:commands.volumeConfirm', { volume: Number(value), count: selected.length });
    if (!(await confirmCommand(detail, { confirm: t('signage:commands.setVolume'), testId: 'signage-volume-confirm' }))) return;
    volume.mutate({ ids: [...selected], volume: Number(value) }, { onSuccess: sent('volume') });
  };

  const send = async (action: SignagePlainCommand) => {
    if (selected.length === 0) return notifyError(t('signage:commands.nothingSelected'));
    const detail = t(`signage:commands.${action}Confirm`, { count: selected.length });
    if (!(await confirmCommand(detail, { confirm: t(`signage:commands.${action}`), testId: `signage-${action}-confirm` }))) return;
    command.mutate({ action, ids: [...selected] }, { onSuccess: sent(action) });
  };

  return (
    <Paper withBorder p="md" radius="md" data-testid="signage-commands">
      <Stack gap="sm">
        {canSound && (
          <>
            <Title order={5}>{t('signage:commands.volumeTitle')}</Title>
            <Group align="flex-end" wrap="nowrap">
              <Slider
                style={{ flex: 1 }}
                mb={error ? 24 : 10}
                min={NUMBER_BOUNDS.volume.min}
                max={NUMBER_BOUNDS.volume.max}
                value={typeof value === 'number' ? value : 0}
                onChange={(v) => {
                  setValue(v);
                  setError(undefined);
                }}
                label={(v) => `${v} %`}
                aria-label={t('signage:fields.volume')}
                data-testid="signage-volume-slider"
              />
              <BoundedNumberInput
                w={100}
                bounds={NUMBER_BOUNDS.volume}
                label={t('signage:fields.volume')}
                value={value}
                onChange={setValue}
                error={error}
                name="volume"
                suffix=" %"
              />
            </Group>
            <Group grow>
              <Button onClick={() => void sendVolume()} loading={volume.isPending} data-testid="signage-volume-send">
                {t('signage:commands.setVolume')}
              </Button>
              <Button variant="light" onClick={() => void send('mute')} loading={command.isPending} data-testid="signage-mute">
                {t('signage:commands.mute')}
              </Button>
              <Button variant="light" onClick={() => void send('unmute')} loading={command.isPending} data-testid="signage-unmute">
                {t('signage:commands.unmute')}
              </Button>
            </Group>
          </>
        )}
        {canReboot && (
          <Button color="orange" variant="light" onClick={() => void send('reboot')} loading={command.isPending} data-testid="signage-reboot">
            {t('signage:commands.reboot')}
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
