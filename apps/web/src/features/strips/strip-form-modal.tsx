import { useEffect } from 'react';
import { Modal, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { DeviceType, LAMP_NAME_MAX, type StripRow } from '@sc/contracts';
import { AreaCascader } from '@/components/area-cascader';
import { FormActions, saveAndClose } from '@/components/form-actions';
import { deviceCodeError } from '@/utils/device-code';
import { useIsMobile } from '@/layout/use-is-mobile';
import { useGroups } from '@/features/lighting/equipment-api';
import { useSaveStrip } from './api';

interface Values {
  lampName: string;
  clientId: string;
  regionId: number | null;
  groupId: string | null;
  gatewayId: string;
  addr: string;
  mac: string;
}

const valuesOf = (strip: StripRow | null): Values => ({
  lampName: strip?.lampName ?? '',
  clientId: strip?.clientId ?? '',
  regionId: strip?.regionId ?? null,
  groupId: strip?.groupId ? String(strip.groupId) : null,
  gatewayId: strip?.gatewayId ?? '',
  addr: strip?.addr ?? '',
  mac: strip?.mac ?? '',
});

/** Add or edit a strip light's record: name, clientId (its MQTT identity), region, group, gateway, address, MAC. */
export function StripFormModal({ opened, strip, onClose }: { opened: boolean; strip: StripRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const save = useSaveStrip();
  const groups = useGroups(DeviceType.LightStrip, opened);
  const form = useForm<Values>({
    initialValues: valuesOf(strip),
    validate: {
      lampName: (v) => (v.trim() ? null : t('messages:nameEmpty')),
      clientId: (v) => deviceCodeError(t, v) ?? null,
    },
  });
  useEffect(() => {
    if (opened) {
      form.setValues(valuesOf(strip));
      form.resetDirty();
      form.clearErrors();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the dialog opens or its target changes
  }, [opened, strip]);

  const submit = form.onSubmit(async (values) => {
    await saveAndClose(
      () =>
        save.mutateAsync({
          ...(strip ? { id: strip.id } : {}),
          ...values,
          lampName: values.lampName.trim(),
          clientId: values.clientId.trim(),
          groupId: values.groupId ? Number(values.groupId) : null,
        }),
      { updated: Boolean(strip), close: onClose, setErrors: form.setErrors },
    );
  });

  return (
    <Modal opened={opened} onClose={onClose} title={t(strip ? 'strip:list.edit' : 'strip:list.add')} size="lg" fullScreen={mobile}>
      <form onSubmit={submit} noValidate data-testid="strip-form">
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('strip:fields.lampName')} required maxLength={LAMP_NAME_MAX} name="lampName" {...form.getInputProps('lampName')} />
            <TextInput label={t('strip:fields.clientId')} required maxLength={64} name="clientId" {...form.getInputProps('clientId')} />
            <AreaCascader label={t('strip:fields.region')} value={form.values.regionId} onChange={(id) => form.setFieldValue('regionId', id)} />
            <Select
              label={t('strip:fields.group')}
              clearable
              data={(groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name }))}
              {...form.getInputProps('groupId')}
            />
            <TextInput label={t('strip:fields.gatewayId')} maxLength={64} name="gatewayId" {...form.getInputProps('gatewayId')} />
            <TextInput label={t('strip:fields.mac')} maxLength={32} name="mac" {...form.getInputProps('mac')} />
          </SimpleGrid>
          <TextInput label={t('strip:fields.addr')} maxLength={255} name="addr" {...form.getInputProps('addr')} />
          <FormActions onCancel={onClose} loading={save.isPending} testId="strip-form-save" />
        </Stack>
      </form>
    </Modal>
  );
}
