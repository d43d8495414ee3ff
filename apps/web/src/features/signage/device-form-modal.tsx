import { useEffect, useState } from 'react';
import { SimpleGrid, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  Button as ButtonPermission,
  NUMBER_BOUNDS,
  SCREEN_ORIENTATIONS,
  SIGNAGE_ADDRESS_MAX,
  SIGNAGE_CMARK_MAX,
  SIGNAGE_NAME_MAX,
  SIGNAGE_SERIAL_MAX,
  type ScreenOrientation,
  type SignageDeviceRow,
} from '@sc/contracts';
import { useButton } from '@/auth/session-store';
import { AreaCascader } from '@/components/area-cascader';
import { BoundedNumberInput, positionErrors } from '@/components/bounded-number-input';
import { FormDialog, saveAndClose } from '@/components/form-actions';
import { Select } from '@/components/select';
import { deviceCodeError } from '@/utils/device-code';
import { useSaveSignageDevice } from './api';

interface Values {
  name: string;
  code: string;
  cMark: string;
  address: string;
  latitude: number | string;
  longitude: number | string;
  regionId: number | null;
  serialNumber: string;
  orientation: ScreenOrientation;
}

const valuesOf = (d: SignageDeviceRow | null): Values => ({
  name: d?.name ?? '',
  code: d?.code ?? '',
  cMark: d?.cMark ?? '',
  address: d?.address ?? '',
  latitude: d?.latitude ?? '',
  longitude: d?.longitude ?? '',
  regionId: d?.regionId ?? null,
  serialNumber: d?.serialNumber ?? '',
  orientation: d?.orientation ?? SCREEN_ORIENTATIONS[0],
});

const coordinate = (v: number | string): number | null => (v === '' ? null : Number(v));

/**
 * Add or edit a floor screen: every field of its record (spec section 3). A new one's MQTT login is shown once after
 * saving; a changed code (its MQTT identity) needs Edit MQTT too.
 */
export function SignageDeviceFormModal({ opened, device, onClose }: { opened: boolean; device: SignageDeviceRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveSignageDevice();
  const canEditMqtt = useButton(ButtonPermission.EditMqtt);
  const [values, setValues] = useState<Values>(valuesOf(device));
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  useEffect(() => {
    if (opened) {
      setValues(valuesOf(device));
      setErrors({});
    }
  }, [opened, device]);
  const set = <K extends keyof Values>(key: K, value: Values[K]) => setValues((v) => ({ ...v, [key]: value }));
  const submit = async () => {
    const problems = {
      name: values.name.trim() ? undefined : t('messages:nameEmpty'),
      code: deviceCodeError(t, values.code),
      ...positionErrors(t, values.latitude, values.longitude),
    };
    if (Object.values(problems).some(Boolean)) return setErrors(problems);
    await saveAndClose(
      () =>
        save.mutateAsync({
          ...(device ? { id: device.id } : {}),
          name: values.name.trim(),
          code: values.code.trim(),
          cMark: values.cMark.trim(),
          address: values.address.trim(),
          latitude: coordinate(values.latitude),
          longitude: coordinate(values.longitude),
          regionId: values.regionId,
          serialNumber: values.serialNumber.trim(),
          orientation: values.orientation,
        }),
      { updated: Boolean(device), close: onClose, setErrors },
    );
  };
  const text = (field: 'name' | 'code' | 'cMark' | 'address' | 'serialNumber', max: number, required = false) => (
    <TextInput
      label={t(`signage:fields.${field}`)}
      required={required}
      maxLength={max}
      name={field}
      disabled={field === 'code' && device !== null && !canEditMqtt}
      value={values[field]}
      onChange={(e) => set(field, e.currentTarget.value)}
      error={errors[field]}
    />
  );
  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={t(device ? 'signage:list.edit' : 'signage:list.add')}
      size="lg"
      onSubmit={submit}
      busy={save.isPending}
      testId="signage-form"
      submitTestId="signage-form-save"
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {text('name', SIGNAGE_NAME_MAX, true)}
        {text('code', 64, true)}
        {text('cMark', SIGNAGE_CMARK_MAX)}
        {text('serialNumber', SIGNAGE_SERIAL_MAX)}
      </SimpleGrid>
      {text('address', SIGNAGE_ADDRESS_MAX)}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <BoundedNumberInput
          label={t('signage:fields.latitude')}
          bounds={NUMBER_BOUNDS.latitude}
          name="latitude"
          value={values.latitude}
          onChange={(v) => set('latitude', v)}
          error={errors.latitude}
        />
        <BoundedNumberInput
          label={t('signage:fields.longitude')}
          bounds={NUMBER_BOUNDS.longitude}
          name="longitude"
          value={values.longitude}
          onChange={(v) => set('longitude', v)}
          error={errors.longitude}
        />
        <AreaCascader label={t('signage:fields.region')} width="100%" value={values.regionId} onChange={(id) => set('regionId', id)} />
        <Select
          label={t('signage:fields.orientation')}
          data={SCREEN_ORIENTATIONS.map((o) => ({ value: o, label: t(`signage:orientation.${o === '9:16' ? 'portrait' : 'landscape'}`) }))}
          value={values.orientation}
          onChange={(o) => o && set('orientation', o as ScreenOrientation)}
          allowDeselect={false}
          data-testid="signage-orientation"
        />
      </SimpleGrid>
    </FormDialog>
  );
}
