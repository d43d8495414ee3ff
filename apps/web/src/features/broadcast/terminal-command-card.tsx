import { useState } from 'react';
import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  Button as ButtonPermission,
  NUMBER_BOUNDS,
  TERMINAL_PLAYBACK_ACTIONS,
  type TerminalPlaybackAction,
  type TerminalVolumeParams,
} from '@sc/contracts';
import { useButton } from '@/auth/session-store';
import { BoundedNumberInput, numberFieldError } from '@/components/bounded-number-input';
import { confirmCommand } from '@/components/confirm';
import { notifyError, notifySuccess } from '@/components/notify';
import { useTerminalPlayback, useTerminalVolume } from './api';
import { describeVolumes } from './terminal-dispatch';

/**
 * Commands to the selected terminals: their volumes (Edit button) and pause, cancel pause or stop of what they play
 * (Open and close), each confirmed with the number of terminals it reaches; the dispatch is then followed beside.
 */
export function TerminalCommandCard({ selected, onDispatched }: { selected: readonly number[]; onDispatched: (dispatchId: string) => void }) {
  const { t } = useTranslation();
  const canVolume = useButton(ButtonPermission.Edit);
  const canPlayback = useButton(ButtonPermission.OpenAndClose);
  const volume = useTerminalVolume();
  const playback = useTerminalPlayback();
  const [values, setValues] = useState<{ broadcastVolume: number | string; interphoneVolume: number | string }>({
    broadcastVolume: '',
    interphoneVolume: '',
  });
  const [errors, setErrors] = useState<{ broadcastVolume?: string; interphoneVolume?: string }>({});
  if (!canVolume && !canPlayback) return null;

  const dispatched = ({ dispatchId }: { dispatchId: string }) => {
    notifySuccess(t('messages:instructionSent'));
    onDispatched(dispatchId);
  };

  const sendVolume = async () => {
    const next = {
      broadcastVolume: numberFieldError(t, values.broadcastVolume, NUMBER_BOUNDS.volume) ?? undefined,
      interphoneVolume: numberFieldError(t, values.interphoneVolume, NUMBER_BOUNDS.volume) ?? undefined,
    };
    if (values.broadcastVolume === '' && values.interphoneVolume === '') next.broadcastVolume = t('messages:volumeEmpty');
    setErrors(next);
    if (next.broadcastVolume || next.interphoneVolume) return;
    if (selected.length === 0) return notifyError(t('broadcast:volume.nothingSelected'));
    const volumes: TerminalVolumeParams = {
      ...(values.broadcastVolume !== '' ? { broadcastVolume: Number(values.broadcastVolume) } : {}),
      ...(values.interphoneVolume !== '' ? { interphoneVolume: Number(values.interphoneVolume) } : {}),
    };
    const detail = t('broadcast:volume.confirm', { what: describeVolumes(t, volumes), count: selected.length });
    if (!(await confirmCommand(detail, { confirm: t('broadcast:volume.send'), testId: 'terminal-volume-confirm' }))) return;
    volume.mutate({ ids: [...selected], ...volumes }, { onSuccess: dispatched });
  };

  const sendPlayback = async (action: TerminalPlaybackAction) => {
    if (selected.length === 0) return notifyError(t('broadcast:volume.nothingSelected'));
    const detail = t('broadcast:playback.confirm', { action: t(`broadcast:playback.${action}`), count: selected.length });
    if (!(await confirmCommand(detail, { confirm: t(`broadcast:playback.${action}`), testId: 'terminal-playback-confirm' }))) return;
    playback.mutate({ ids: [...selected], action }, { onSuccess: dispatched });
  };

  return (
    <Paper withBorder p="md" radius="md" data-testid="terminal-commands">
      <Stack gap="sm">
        {canVolume && (
          <>
            <Title order={5}>{t('broadcast:volume.title')}</Title>
            <Group grow align="flex-start">
              {(['broadcastVolume', 'interphoneVolume'] as const).map((field) => (
                <BoundedNumberInput
                  key={field}
                  bounds={NUMBER_BOUNDS.volume}
                  label={t(`broadcast:fields.${field}`)}
                  value={values[field]}
                  onChange={(value) => setValues({ ...values, [field]: value })}
                  error={errors[field]}
                  name={field}
                  suffix=" %"
                />
              ))}
            </Group>
            <Button onClick={() => void sendVolume()} loading={volume.isPending} data-testid="terminal-volume-send">
              {t('broadcast:volume.send')}
            </Button>
          </>
        )}
        {canPlayback && (
          <>
            <Title order={5}>{t('broadcast:playback.title')}</Title>
            <Group grow>
              {TERMINAL_PLAYBACK_ACTIONS.map((action) => (
                <Button
                  key={action}
                  variant="light"
                  onClick={() => void sendPlayback(action)}
                  loading={playback.isPending}
                  data-testid={`terminal-${action}`}
                >
                  {t(`broadcast:playback.${action}`)}
                </Button>
              ))}
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}
