import { useState } from 'react';
import { Button, Paper, Stack, Title } from '@mantine/core';
import { IconVolume } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ALARM_COLUMN_BOUNDS } from '@sc/contracts';
import { BoundedNumberInput, numberFieldError } from '@/components/bounded-number-input';

/** The volume of the selected columns: a number in the column's bounds, sent through the ledger. */
export function VolumeCard({ send, loading }: { send: (volume: number) => Promise<void>; loading: boolean }) {
  const { t } = useTranslation();
  const [value, setValue] = useState<number | string>(60);
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    const problem = numberFieldError(t, value, ALARM_COLUMN_BOUNDS.volume, true);
    setError(problem);
    if (!problem) void send(Number(value)).catch(() => undefined);
  };
  return (
    <Paper withBorder p="md" radius="md" data-testid="alarm-volume-card">
      <Stack gap="sm">
        <Title order={5}>{t('alarmColumns:command.volume')}</Title>
        <BoundedNumberInput
          label={t('alarmColumns:fields.volume')}
          bounds={ALARM_COLUMN_BOUNDS.volume}
          value={value}
          onChange={setValue}
          error={error}
          suffix=" %"
          data-testid="alarm-volume-input"
        />
        <Button leftSection={<IconVolume size={16} />} onClick={submit} loading={loading} data-testid="alarm-volume-send">
          {t('alarmColumns:command.send')}
        </Button>
      </Stack>
    </Paper>
  );
}
