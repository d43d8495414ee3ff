import { useEffect } from 'react';
import { Modal, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { ALARM_COLUMN_NAME_MAX, NUMBER_BOUNDS, SIP_ACCOUNT_MAX, SIP_ACCOUNT_PATTERN, type AlarmColumnRow } from '@sc/contracts';
import { useSession } from '@/auth/session-store';
import { AreaCascader } from '@/components/area-cascader';
import { BoundedNumberInput, coordinateOf, positionErrors } from '@/components/bounded-number-input';
import { FormActions, saveAndClose } from '@/components/form-actions';
import { PoleField } from '@/features/poles/pole-field';
import { useIsMobile } from '@/layout/use-is-mobile';
import { canOpen } from '@/navigation/permitted-routes';
import { ROUTE_TABLE } from '@/navigation/route-table';
import { deviceCodeError } from '@/utils/device-code';
import { useSaveAlarmColumn } from './api';

interface Values {
  name: string;
  code: string;
  sipAccount: string;
  latitude: number | string;
  longitude: number | string;
  regionId: number | null;
  poleId: number | null;
}

const valuesOf = (column: AlarmColumnRow | null): Values => ({
  name: column?.name ?? '',
  code: column?.code ?? '',
  sipAccount: column?.sipAccount ?? '',
  latitude: column?.latitude ?? '',
  longitude: column?.longitude ?? '',
  regionId: column?.regionId ?? null,
  poleId: column?.poleId ?? null,
});

/**
 * Add or edit an alarm column's record: its name, code (its MQTT identity), SIP account, region, pole and its own
 * position (empty: its pole's); the server's refusals stand under their fields.
 */
export function AlarmColumnFormModal({ column, onClose }: { column: AlarmColumnRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const save = useSaveAlarmColumn();
  const roles = useSession((s) => s.roles);
  const mayPickPole = canOpen(ROUTE_TABLE, '/lampPole/poleManage', roles);
  const form = useForm<Values>({
    initialValues: valuesOf(column),
    validate: {
      name: (v) => (v.trim() ? null : t('messages:nameEmpty')),
      code: (v) => deviceCodeError(t, v) ?? null,
      sipAccount: (v) => (v.trim() === '' || SIP_ACCOUNT_PATTERN.test(v.trim()) ? null : t('alarmColumns:list.sipInvalid')),
      latitude: (v, all) => positionErrors(t, v, all.longitude).latitude,
      longitude: (v, all) => positionErrors(t, all.latitude, v).longitude,
    },
  });
  useEffect(() => {
    form.setValues(valuesOf(column));
    form.resetDirty();
    form.clearErrors();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when its target changes
  }, [column]);

  const submit = form.onSubmit(async (values) => {
    await saveAndClose(
      () =>
        save.mutateAsync({
          ...(column ? { id: column.id } : {}),
          name: values.name.trim(),
          code: values.code.trim(),
          sipAccount: values.sipAccount.trim(),
          latitude: coordinateOf(values.latitude),
          longitude: coordinateOf(values.longitude),
          regionId: values.regionId,
          ...(mayPickPole ? { poleId: values.poleId } : {}),
        }),
      { updated: Boolean(column), close: onClose, setErrors: form.setErrors },
    );
  });

  return (
    <Modal opened onClose={onClose} title={t(`alarmColumns:list.${column ? 'edit' : 'add'}`)} size="lg" fullScreen={mobile}>
      <form onSubmit={submit} noValidate data-testid="alarm-form">
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('alarmColumns:fields.name')} required maxLength={ALARM_COLUMN_NAME_MAX} name="name" {...form.getInputProps('name')} />
            <TextInput label={t('alarmColumns:fields.code')} required maxLength={64} name="code" {...form.getInputProps('code')} />
            <TextInput
              label={t('alarmColumns:fields.sipAccount')}
              maxLength={SIP_ACCOUNT_MAX}
              name="sipAccount"
              {...form.getInputProps('sipAccount')}
            />
            <AreaCascader
              label={t('alarmColumns:fields.region')}
              value={form.values.regionId}
              onChange={(id) => form.setFieldValue('regionId', id)}
            />
            {mayPickPole && (
              <PoleField
                label={t('alarmColumns:fields.pole')}
                placeholder={t('alarmColumns:list.noPole')}
                value={form.values.poleId}
                current={column}
                onChange={(id) => form.setFieldValue('poleId', id)}
                testId="alarm-form-pole"
              />
            )}
            <BoundedNumberInput
              label={t('alarmColumns:fields.latitude')}
              bounds={NUMBER_BOUNDS.latitude}
              name="latitude"
              {...form.getInputProps('latitude')}
            />
            <BoundedNumberInput
              label={t('alarmColumns:fields.longitude')}
              bounds={NUMBER_BOUNDS.longitude}
              name="longitude"
              {...form.getInputProps('longitude')}
            />
          </SimpleGrid>
          <FormActions onCancel={onClose} loading={save.isPending} testId="alarm-form-save" />
        </Stack>
      </form>
    </Modal>
  );
}
