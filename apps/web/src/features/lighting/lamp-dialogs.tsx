import { useEffect, useState, type ComponentProps } from 'react';
import { Select, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LampRow, LightingGroupType } from '@sc/contracts';
import { fieldErrors } from '@/api/field-errors';
import { notifySuccess } from '@/components/notify';
import { FormDialog } from '@/components/form-actions';
import { showMqttCredentials } from '@/components/mqtt-credentials';
import { deviceCodeError } from '@/utils/device-code';
import { useBatchUpdateGateway, useBindGateway, useEditMqtt, useGatewayOptions, useGroups, useLoopOptions, useMoveToGroup } from './equipment-api';

type Errors = Record<string, string | undefined>;

/** A lamp dialog: its fields, then Cancel and Confirm (`<testId>-submit`). */
function DialogFrame({ testId, ...props }: Omit<ComponentProps<typeof FormDialog>, 'submitTestId' | 'submitLabel'>) {
  const { t } = useTranslation();
  return <FormDialog {...props} testId={testId} submitTestId={`${testId}-submit`} submitLabel={t('common:actions.confirm')} />;
}

/** Runs a call; on refusal shows the server's field messages under their inputs (the toast is already on screen). */
async function attempt(call: () => Promise<unknown>, setErrors: (e: Errors) => void, done: () => void): Promise<void> {
  try {
    await call();
    done();
  } catch (error) {
    setErrors(fieldErrors(error));
  }
}

/** Edit MQTT: the lamp's MQTT identity (its clientId) and new MQTT credentials, shown once; administrators only. */
export function EditMqttModal({ lamp, onClose }: { lamp: LampRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useEditMqtt();
  const [clientId, setClientId] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  useEffect(() => {
    setClientId(lamp?.clientId ?? '');
    setErrors({});
  }, [lamp]);
  const submit = () => {
    const value = clientId.trim();
    const problem = deviceCodeError(t, value);
    if (problem) return setErrors({ clientId: problem });
    void attempt(
      async () => {
        const answer = await save.mutateAsync({ id: lamp!.id, clientId: value });
        if (answer.mqtt) showMqttCredentials(answer.mqtt);
      },
      setErrors,
      () => {
        notifySuccess(t('common:feedback.updated'));
        onClose();
      },
    );
  };
  return (
    <DialogFrame
      opened={lamp !== null}
      title={t('lighting:equipment.editMqtt')}
      onClose={onClose}
      onSubmit={submit}
      busy={save.isPending}
      testId="edit-mqtt"
    >
      <Text size="sm" c="dimmed">
        {t('lighting:equipment.editMqttHint')}
      </Text>
      <TextInput
        label={t('lighting:fields.clientId')}
        required
        maxLength={64}
        name="clientId"
        value={clientId}
        onChange={(e) => setClientId(e.currentTarget.value)}
        error={errors.clientId}
      />
    </DialogFrame>
  );
}

/** Bind gateway: gateway, lamp controller and loop, all three required ('Device binding needs complete information'). */
export function BindGatewayModal({ lamp, onClose }: { lamp: LampRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const bind = useBindGateway();
  const gateways = useGatewayOptions(lamp !== null);
  const [gatewayId, setGatewayId] = useState<string | null>(null);
  const [lampControlId, setLampControlId] = useState('');
  const [loopId, setLoopId] = useState<string | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const loops = useLoopOptions(gatewayId);
  useEffect(() => {
    setGatewayId(lamp?.gatewayId || null);
    setLampControlId(lamp?.lampControlId ?? '');
    setLoopId(lamp?.loopId ? String(lamp.loopId) : null);
    setErrors({});
  }, [lamp]);
  const submit = () => {
    const missing = t('messages:bindingIncomplete');
    const problems: Errors = {
      gatewayId: gatewayId ? undefined : missing,
      lampControlId: lampControlId.trim() ? undefined : missing,
      loopId: loopId ? undefined : missing,
    };
    if (Object.values(problems).some(Boolean)) return setErrors(problems);
    void attempt(
      () => bind.mutateAsync({ id: lamp!.id, gatewayId: gatewayId!, lampControlId: lampControlId.trim(), loopId: Number(loopId) }),
      setErrors,
      () => {
        notifySuccess(t('lighting:equipment.bound'));
        onClose();
      },
    );
  };
  return (
    <DialogFrame
      opened={lamp !== null}
      title={t('lighting:equipment.bindGateway')}
      onClose={onClose}
      onSubmit={submit}
      busy={bind.isPending}
      testId="bind-gateway"
    >
      <Select
        label={t('lighting:fields.gatewayId')}
        required
        searchable
        data={(gateways.data ?? []).map((g) => ({ value: g.gatewayId, label: `${g.gatewayId} · ${g.name}` }))}
        value={gatewayId}
        onChange={(v) => {
          setGatewayId(v);
          setLoopId(null);
        }}
        error={errors.gatewayId}
        data-testid="bind-gateway-select"
      />
      <TextInput
        label={t('lighting:fields.lampControlId')}
        required
        maxLength={64}
        value={lampControlId}
        onChange={(e) => setLampControlId(e.currentTarget.value)}
        error={errors.lampControlId}
        name="lampControlId"
      />
      <Select
        label={t('lighting:fields.loop')}
        required
        data={(loops.data ?? []).map((l) => ({ value: String(l.id), label: `${l.code} · ${l.name}` }))}
        value={loopId}
        onChange={setLoopId}
        error={errors.loopId}
        disabled={!gatewayId}
        data-testid="bind-loop-select"
      />
    </DialogFrame>
  );
}

/** Batch Update Gateway: the selected lamps to another gateway. */
export function BatchGatewayModal({ ids, opened, onClose }: { ids: number[]; opened: boolean; onClose: (done: boolean) => void }) {
  const { t } = useTranslation();
  const update = useBatchUpdateGateway();
  const gateways = useGatewayOptions(opened);
  const [gatewayId, setGatewayId] = useState<string | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  useEffect(() => {
    if (opened) {
      setGatewayId(null);
      setErrors({});
    }
  }, [opened]);
  const submit = () => {
    if (!gatewayId) return setErrors({ gatewayId: t('messages:pleaseSelect') });
    void attempt(
      () => update.mutateAsync({ ids, gatewayId }),
      setErrors,
      () => {
        notifySuccess(t('common:feedback.updated'));
        onClose(true);
      },
    );
  };
  return (
    <DialogFrame
      opened={opened}
      title={t('lighting:equipment.batchUpdateGateway')}
      onClose={() => onClose(false)}
      onSubmit={submit}
      busy={update.isPending}
      testId="batch-gateway"
    >
      <Text size="sm">{t('lighting:control.selected', { count: ids.length })}</Text>
      <Select
        label={t('lighting:equipment.targetGateway')}
        required
        searchable
        data={(gateways.data ?? []).map((g) => ({ value: g.gatewayId, label: `${g.gatewayId} · ${g.name}` }))}
        value={gatewayId}
        onChange={setGatewayId}
        error={errors.gatewayId}
        data-testid="batch-gateway-select"
      />
    </DialogFrame>
  );
}

/** Moves the selected devices into another group; a target group is required ('Please select a group'). */
export function MoveGroupModal({
  ids,
  type,
  opened,
  onClose,
}: {
  ids: number[];
  type: LightingGroupType;
  opened: boolean;
  onClose: (done: boolean) => void;
}) {
  const { t } = useTranslation();
  const move = useMoveToGroup();
  const groups = useGroups(type, opened);
  const [groupId, setGroupId] = useState<string | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  useEffect(() => {
    if (opened) {
      setGroupId(null);
      setErrors({});
    }
  }, [opened]);
  const submit = () => {
    if (!groupId) return setErrors({ groupId: t('messages:selectGroup') });
    void attempt(
      () => move.mutateAsync({ type, ids, groupId: Number(groupId) }),
      setErrors,
      () => {
        notifySuccess(t('lighting:equipment.moved'));
        onClose(true);
      },
    );
  };
  return (
    <DialogFrame
      opened={opened}
      title={t('lighting:equipment.moveToGroup')}
      onClose={() => onClose(false)}
      onSubmit={submit}
      busy={move.isPending}
      testId="move-group"
    >
      <Text size="sm">{t('lighting:control.selected', { count: ids.length })}</Text>
      <Select
        label={t('lighting:equipment.targetGroup')}
        required
        data={(groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name }))}
        value={groupId}
        onChange={setGroupId}
        error={errors.groupId}
        data-testid="move-group-select"
      />
    </DialogFrame>
  );
}
