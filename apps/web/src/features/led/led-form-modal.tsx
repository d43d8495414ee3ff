import { useEffect } from 'react';
import { Modal, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { IPV4_PATTERN, LED_BOUNDS, LED_NAME_MAX, type LedRow } from '@sc/contracts';
import { useSession } from '@/auth/session-store';
import { AreaCascader } from '@/components/area-cascader';
import { BoundedNumberInput, numberFieldError } from '@/components/bounded-number-input';
import { FormActions, saveAndClose } from '@/components/form-actions';
import { PoleField } from '@/features/poles/pole-field';
import { useIsMobile } from '@/layout/use-is-mobile';
import { canOpen } from '@/navigation/permitted-routes';
import { ROUTE_TABLE } from '@/navigation/route-table';
import { deviceCodeError } from '@/utils/device-code';
import { useSaveLed } from './api';

interface Values {
  name: string;
  sn: string;
  IPAddress: string;
  width: number | string;
  height: number | string;
  timeZone: string;
  regionId: number | null;
  poleId: number | null;
}

const valuesOf = (screen: LedRow | null): Values => ({
  name: screen?.name ?? '',
  sn: screen?.sn ?? '',
  IPAddress: screen?.IPAddress ?? '',
  width: screen?.width ?? '',
  height: screen?.height ?? '',
  timeZone: screen?.timeZone ?? '',
  regionId: screen?.regionId ?? null,
  poleId: screen?.poleId ?? null,
});

/** Add or edit a screen's record: the spec's LED fields it does not report, its region and its pole; the server's refusals stand under their fields. */
export function LedFormModal({ opened, screen, onClose }: { opened: boolean; screen: LedRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const save = useSaveLed();
  const roles = useSession((s) => s.roles);
  const mayPickPole = canOpen(ROUTE_TABLE, '/lampPole/poleManage', roles);
  const form = useForm<Values>({
    initialValues: valuesOf(screen),
    validate: {
      name: (v) => (v.trim() ? null : t('messages:nameEmpty')),
      sn: (v) => deviceCodeError(t, v) ?? null,
      IPAddress: (v) => (!v.trim() ? t('messages:pleaseEnter') : IPV4_PATTERN.test(v.trim()) ? null : t('led:list.ipAddressInvalid')),
      width: (v) => numberFieldError(t, v, LED_BOUNDS.pixels, true),
      height: (v) => numberFieldError(t, v, LED_BOUNDS.pixels, true),
    },
  });
  useEffect(() => {
    if (opened) {
      form.setValues(valuesOf(screen));
      form.resetDirty();
      form.clearErrors();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the dialog opens or its target changes
  }, [opened, screen]);

  const submit = form.onSubmit(async (values) => {
    await saveAndClose(
      () =>
        save.mutateAsync({
          ...(screen ? { id: screen.id } : {}),
          name: values.name.trim(),
          sn: values.sn.trim(),
          IPAddress: values.IPAddress.trim(),
          width: Number(values.width),
          height: Number(values.height),
          ...(values.timeZone.trim() ? { timeZone: values.timeZone.trim() } : {}),
          regionId: values.regionId,
          ...(mayPickPole ? { poleId: values.poleId } : {}),
        }),
      { updated: Boolean(screen), close: onClose, setErrors: form.setErrors },
    );
  });

  const text = (field: 'name' | 'sn' | 'IPAddress' | 'timeZone', max: number, required = true) => (
    <TextInput
      label={t(`led:fields.${field}`)}
      required={required}
      maxLength={max}
      name={field}
      placeholder={field === 'timeZone' ? t('led:fields.timeZoneHint') : undefined}
      {...form.getInputProps(field)}
    />
  );
  const pixels = (field: 'width' | 'height') => (
    <BoundedNumberInput label={t(`led:fields.${field}`)} required bounds={LED_BOUNDS.pixels} name={field} {...form.getInputProps(field)} />
  );

  return (
    <Modal opened={opened} onClose={onClose} title={t(screen ? 'led:list.edit' : 'led:list.add')} size="lg" fullScreen={mobile}>
      <form onSubmit={submit} noValidate data-testid="led-form">
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {text('name', LED_NAME_MAX)}
            {text('sn', 64)}
            {text('IPAddress', 15)}
            {text('timeZone', 64, false)}
            {pixels('width')}
            {pixels('height')}
            <AreaCascader label={t('led:fields.region')} value={form.values.regionId} onChange={(id) => form.setFieldValue('regionId', id)} />
            {mayPickPole && (
              <PoleField
                label={t('led:fields.pole')}
                placeholder={t('led:list.noPole')}
                value={form.values.poleId}
                current={screen}
                onChange={(id) => form.setFieldValue('poleId', id)}
                testId="led-form-pole"
              />
            )}
          </SimpleGrid>
          <FormActions onCancel={onClose} loading={save.isPending} testId="led-form-save" />
        </Stack>
      </form>
    </Modal>
  );
}
