import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconKey } from '@tabler/icons-react';
import { i18next } from '@/i18n';
import { useTranslation } from 'react-i18next';
import type { MqttCredentials } from '@sc/contracts';
import { CopyTextButton } from './copy-text-button';

function Field({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Code style={{ flex: 1, wordBreak: 'break-all' }} data-testid={testId}>
          {value}
        </Code>
        <CopyTextButton value={value} label={t('common:mqttCredentials.copy')} copiedLabel={t('common:mqttCredentials.copied')} />
      </Group>
    </Stack>
  );
}

function CredentialsBody({ credentials, onDone }: { credentials: MqttCredentials; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack data-testid="mqtt-credentials">
      <Alert color="yellow" icon={<IconKey size={16} />}>
        {t('common:mqttCredentials.hint')}
      </Alert>
      <Field label={t('common:mqttCredentials.username')} value={credentials.username} testId="mqtt-username" />
      <Field label={t('common:mqttCredentials.password')} value={credentials.password} testId="mqtt-password" />
      <Group justify="flex-end">
        <Button onClick={onDone} data-testid="mqtt-credentials-done">
          {t('common:mqttCredentials.done')}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * A device's MQTT login, handed out once: after the device is created or its credentials were issued anew (Edit MQTT).
 * The password is never shown again (the server keeps none; docs/security.md).
 */
export function showMqttCredentials(credentials: MqttCredentials): void {
  const device = credentials.username.slice(credentials.username.indexOf('/') + 1);
  const id = modals.open({
    title: i18next.t('common:mqttCredentials.title', { device }),
    size: 'lg',
    children: <CredentialsBody credentials={credentials} onDone={() => modals.close(id)} />,
  });
}
