import { IconKey } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, type DeviceFamily, type MqttCredentials, type MqttRenewRequest } from '@sc/contracts';
import { post } from '@/api/request';
import { useButton } from '@/auth/session-store';
import { confirmed } from './confirm';
import { IconAction } from './row-actions';

/**
 * Edit MQTT for a device that keeps its code (strip lights, poles, lamp gateways, and the families to come): after a
 * confirmation, a new login shown once; the old password stops working. Only for callers with the Edit MQTT button.
 */
export function RenewMqttAction({ family, id, name, testId }: { family: DeviceFamily; id: number; name: string; testId: string }) {
  const { t } = useTranslation();
  const allowed = useButton(Button.EditMqtt);
  const renew = useMutation({ mutationFn: (body: MqttRenewRequest) => post<{ mqtt?: MqttCredentials }>('/mqtt/renew', body) });
  if (!allowed) return null;
  const run = async () => {
    const ok = await confirmed({
      title: t('common:mqttCredentials.renewTitle', { name }),
      detail: t('common:mqttCredentials.renewDetail', { name }),
      confirm: t('common:mqttCredentials.renewConfirm'),
      color: 'orange',
      testId: 'mqtt-renew-confirm',
    });
    if (!ok) return;
    // A refusal is already on screen.
    const answer = await renew.mutateAsync({ family, id }).catch(() => null);
    // The login dialog loads with the first renewal, not with the list.
    if (answer?.mqtt) (await import('./mqtt-credentials')).showMqttCredentials(answer.mqtt);
  };
  return (
    <IconAction label={t('common:mqttCredentials.renew')} variant="light" onClick={() => void run()} testId={testId}>
      <IconKey size={18} />
    </IconAction>
  );
}
