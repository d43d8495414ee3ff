import { useState, type ReactNode } from 'react';
import { Alert, Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
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

/**
 * A device's MQTT login, handed out once: after the device is created or Edit MQTT issued new credentials. The
 * password is never shown again (the server keeps none; docs/security.md).
 */
export function useMqttCredentialsHandout(): { node: ReactNode; show: (device: string, credentials: MqttCredentials | undefined) => void } {
  const { t } = useTranslation();
  const [shown, setShown] = useState<{ device: string; credentials: MqttCredentials } | null>(null);
  const close = () => setShown(null);
  const node = (
    <Modal opened={shown !== null} onClose={close} title={t('common:mqttCredentials.title', { device: shown?.device ?? '' })} size="lg">
      {shown && (
        <Stack data-testid="mqtt-credentials">
          <Alert color="yellow" icon={<IconKey size={16} />}>
            {t('common:mqttCredentials.hint')}
          </Alert>
          <Field label={t('common:mqttCredentials.username')} value={shown.credentials.username} testId="mqtt-username" />
          <Field label={t('common:mqttCredentials.password')} value={shown.credentials.password} testId="mqtt-password" />
          <Group justify="flex-end">
            <Button onClick={close} data-testid="mqtt-credentials-done">
              {t('common:mqttCredentials.done')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
  return { node, show: (device, credentials) => credentials && setShown({ device, credentials }) };
}
