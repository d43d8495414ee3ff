import { useEffect } from 'react';
import { Modal, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { DEVICE_CODE_PATTERN, DeviceType, LAMP_NAME_MAX, NUMBER_BOUNDS, type LampRow } from '@sc/contracts';
import { BoundedNumberInput, coordinateOf, positionErrors } from '@/components/bounded-number-input';
import { AreaCascader } from '@/components/area-cascader';
import { FormActions, saveAndClose } from '@/components/form-actions';
import { useIsMobile } from '@/layout/use-is-mobile';
import { useSaveLamp } from './api';
import { useGroups } from './equipment-api';

interface Values {
  lampName: string;
  clientId: string;
  regionId: number | null;
  gatewayId: string;
  lampControlId: string;
  addr: string;
  mac: string;
  groupId: string | null;
  latitude: number | string;
  longitude: number | string;
  color: string;
}

const valuesOf = (lamp: LampRow | null): Values => ({
  lampName: lamp?.lampName ?? '',
  clientId: lamp?.clientId ?? '',
  regionId: lamp?.regionId ?? null,
  gatewayId: lamp?.gatewayId ?? '',
  lampControlId: lamp?.lampControlId ?? '',
  addr: lamp?.addr ?? '',
  mac: lamp?.mac ?? '',
  groupId: lamp?.groupId ? String(lamp.groupId) : null,
  latitude: lamp?.latitude ?? '',
  longitude: lamp?.longitude ?? '',
  color: lamp?.color ?? '',
});

/**
 * Add or edit a lamp's record (name, clientId that it uses on MQTT, region, gateway, controller, address, MAC, group,
 * position, colour). On edit the clientId is read-only: it is the lamp's MQTT identity, changed with Edit MQTT.
 */
export function LampFormModal({ opened, lamp, onClose }: { opened: boolean; lamp: LampRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const save = useSaveLamp();
  const groups = useGroups(DeviceType.SingleLamp, opened);
  const form = useForm<Values>({
    initialValues: valuesOf(lamp),
    validate: {
      lampName: (v) => (v.trim() ? null : t('messages:nameEmpty')),
      clientId: (v) => (!v.trim() ? t('messages:pleaseEnter') : DEVICE_CODE_PATTERN.test(v.trim()) ? null : t('messages:invalidValue')),
      latitude: (v, all) => positionErrors(t, v, all.longitude).latitude,
      longitude: (v, all) => positionErrors(t, all.latitude, v).longitude,
      color: (v) => (v === '' || /^#[0-9a-f]{6}$/i.test(v) ? null : t('messages:colorInvalid')),
    },
  });
  // A new target each time the dialog opens.
  useEffect(() => {
    if (opened) {
      form.setValues(valuesOf(lamp));
      form.resetDirty();
      form.clearErrors();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the dialog opens or its target changes
  }, [opened, lamp]);

  const submit = form.onSubmit(async (values) => {
    await saveAndClose(
      () =>
        save.mutateAsync({
          ...(lamp ? { id: lamp.id } : {}),
          ...values,
          lampName: values.lampName.trim(),
          clientId: values.clientId.trim(),
          groupId: values.groupId ? Number(values.groupId) : null,
          latitude: coordinateOf(values.latitude),
          longitude: coordinateOf(values.longitude),
        }),
      { updated: Boolean(lamp), close: onClose, setErrors: form.setErrors },
    );
  });

  return (
    <Modal opened={opened} onClose={onClose} title={t(lamp ? 'lighting:list.edit' : 'lighting:list.add')} size="lg" fullScreen={mobile}>
      <form onSubmit={submit} noValidate data-testid="lamp-form">
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('lighting:fields.lampName')} required maxLength={LAMP_NAME_MAX} name="lampName" {...form.getInputProps('lampName')} />
            <TextInput
              label={t('lighting:fields.clientId')}
              required
              maxLength={64}
              name="clientId"
              disabled={lamp !== null}
              description={lamp ? t('lighting:equipment.clientIdReadOnly') : undefined}
              {...form.getInputProps('clientId')}
            />
          </SimpleGrid>
          <AreaCascader
            label={t('lighting:fields.region')}
            width="100%"
            value={form.values.regionId}
            onChange={(id) => form.setFieldValue('regionId', id)}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('lighting:fields.gatewayId')} maxLength={64} name="gatewayId" {...form.getInputProps('gatewayId')} />
            <TextInput label={t('lighting:fields.lampControlId')} maxLength={64} name="lampControlId" {...form.getInputProps('lampControlId')} />
            <TextInput label={t('lighting:fields.addr')} maxLength={255} name="addr" {...form.getInputProps('addr')} />
            <TextInput label={t('lighting:fields.mac')} maxLength={32} name="mac" {...form.getInputProps('mac')} />
            <Select
              label={t('lighting:fields.group')}
              clearable
              data={(groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name }))}
              {...form.getInputProps('groupId')}
              data-testid="lamp-form-group"
            />
            <TextInput label={t('lighting:fields.color')} maxLength={7} placeholder="#ffd27f" name="color" {...form.getInputProps('color')} />
            <BoundedNumberInput
              label={t('lighting:fields.latitude')}
              bounds={NUMBER_BOUNDS.latitude}
              name="latitude"
              {...form.getInputProps('latitude')}
            />
            <BoundedNumberInput
              label={t('lighting:fields.longitude')}
              bounds={NUMBER_BOUNDS.longitude}
              name="longitude"
              {...form.getInputProps('longitude')}
            />
          </SimpleGrid>
          <FormActions onCancel={onClose} loading={save.isPending} testId="lamp-save" />
        </Stack>
      </form>
    </Modal>
  );
}
