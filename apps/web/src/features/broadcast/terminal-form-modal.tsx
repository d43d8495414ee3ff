import { useEffect } from 'react';
import { Modal, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import {
  CALL_CODE_PATTERN,
  IPV4_PATTERN,
  NUMBER_BOUNDS,
  RELAY_SERVER_MAX,
  TERMINAL_NAME_MAX,
  TERMINAL_TYPE_MAX,
  type TerminalRow,
} from '@sc/contracts';
import { AreaCascader } from '@/components/area-cascader';
import { BoundedNumberInput, numberFieldError } from '@/components/bounded-number-input';
import { FormActions, saveAndClose } from '@/components/form-actions';
import { useIsMobile } from '@/layout/use-is-mobile';
import { deviceCodeError } from '@/utils/device-code';
import { useSaveTerminal } from './api';

interface Values {
  terminalName: string;
  terminalId: string;
  terminalIP: string;
  callCode: string;
  isDefault: boolean;
  broadcastVolume: number | string;
  interphoneVolume: number | string;
  priority: number | string;
  relayServer: string;
  terminalType: string;
  regionId: number | null;
}

const valuesOf = (terminal: TerminalRow | null): Values => ({
  terminalName: terminal?.terminalName ?? '',
  terminalId: terminal?.terminalId ?? '',
  terminalIP: terminal?.terminalIP ?? '',
  callCode: terminal?.callCode ?? '',
  isDefault: terminal?.isDefault ?? false,
  broadcastVolume: terminal?.broadcastVolume ?? 50,
  interphoneVolume: terminal?.interphoneVolume ?? 50,
  priority: terminal?.priority ?? 5,
  relayServer: terminal?.relayServer ?? '',
  terminalType: terminal?.terminalType ?? '',
  regionId: terminal?.regionId ?? null,
});

/** Add or edit a terminal's record: the spec's terminal fields and its region; the server's refusals stand under their fields. */
export function TerminalFormModal({ opened, terminal, onClose }: { opened: boolean; terminal: TerminalRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const save = useSaveTerminal();
  const form = useForm<Values>({
    initialValues: valuesOf(terminal),
    validate: {
      terminalName: (v) => (v.trim() ? null : t('messages:nameEmpty')),
      terminalId: (v) => deviceCodeError(t, v) ?? null,
      terminalIP: (v) => (!v.trim() ? t('messages:pleaseEnter') : IPV4_PATTERN.test(v.trim()) ? null : t('messages:terminalIpInvalid')),
      callCode: (v) => (CALL_CODE_PATTERN.test(v.trim()) ? null : t('messages:callCodeInvalid')),
      broadcastVolume: (v) => numberFieldError(t, v, NUMBER_BOUNDS.volume, true),
      interphoneVolume: (v) => numberFieldError(t, v, NUMBER_BOUNDS.volume, true),
      priority: (v) => numberFieldError(t, v, NUMBER_BOUNDS.terminalPriority, true),
    },
  });
  useEffect(() => {
    if (opened) {
      form.setValues(valuesOf(terminal));
      form.resetDirty();
      form.clearErrors();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the dialog opens or its target changes
  }, [opened, terminal]);

  const submit = form.onSubmit(async (values) => {
    await saveAndClose(
      () =>
        save.mutateAsync({
          ...(terminal ? { id: terminal.id } : {}),
          ...values,
          terminalName: values.terminalName.trim(),
          terminalId: values.terminalId.trim(),
          terminalIP: values.terminalIP.trim(),
          callCode: values.callCode.trim(),
          broadcastVolume: Number(values.broadcastVolume),
          interphoneVolume: Number(values.interphoneVolume),
          priority: Number(values.priority),
        }),
      { updated: Boolean(terminal), close: onClose, setErrors: form.setErrors },
    );
  });

  const text = (field: 'terminalName' | 'terminalId' | 'terminalIP' | 'callCode' | 'relayServer' | 'terminalType', max: number, required = false) => (
    <TextInput label={t(`broadcast:fields.${field}`)} required={required} maxLength={max} name={field} {...form.getInputProps(field)} />
  );
  const number = (field: 'broadcastVolume' | 'interphoneVolume' | 'priority') => (
    <BoundedNumberInput
      label={t(`broadcast:fields.${field}`)}
      required
      bounds={field === 'priority' ? NUMBER_BOUNDS.terminalPriority : NUMBER_BOUNDS.volume}
      name={field}
      {...form.getInputProps(field)}
    />
  );

  return (
    <Modal opened={opened} onClose={onClose} title={t(terminal ? 'broadcast:list.edit' : 'broadcast:list.add')} size="lg" fullScreen={mobile}>
      <form onSubmit={submit} noValidate data-testid="terminal-form">
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {text('terminalName', TERMINAL_NAME_MAX, true)}
            {text('terminalId', 64, true)}
            {text('terminalIP', 15, true)}
            {text('callCode', 16)}
            {number('broadcastVolume')}
            {number('interphoneVolume')}
            {number('priority')}
            {text('terminalType', TERMINAL_TYPE_MAX)}
            <AreaCascader label={t('broadcast:fields.region')} value={form.values.regionId} onChange={(id) => form.setFieldValue('regionId', id)} />
            {text('relayServer', RELAY_SERVER_MAX)}
          </SimpleGrid>
          <Switch label={t('broadcast:fields.isDefault')} name="isDefault" {...form.getInputProps('isDefault', { type: 'checkbox' })} />
          <FormActions onCancel={onClose} loading={save.isPending} testId="terminal-form-save" />
        </Stack>
      </form>
    </Modal>
  );
}
