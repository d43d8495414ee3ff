import { useEffect } from 'react';
import { Modal, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { MAC_PATTERN, WIFI_LABEL_MAX, WIFI_NAME_MAX, type AcRow, type ApRow } from '@sc/contracts';
import { useSession } from '@/auth/session-store';
import { AreaCascader } from '@/components/area-cascader';
import { FormActions, saveAndClose } from '@/components/form-actions';
import { Select } from '@/components/select';
import { PoleField } from '@/features/poles/pole-field';
import { useIsMobile } from '@/layout/use-is-mobile';
import { canOpen } from '@/navigation/permitted-routes';
import { ROUTE_TABLE } from '@/navigation/route-table';
import { deviceCodeError } from '@/utils/device-code';
import { useAcOptions, useSaveWifiDevice, type WifiKind } from './api';

interface Values {
  devName: string;
  devSN: string;
  devMac: string;
  devModel: string;
  devType: string;
  acId: string | null;
  regionId: number | null;
  poleId: number | null;
}

const valuesOf = (device: AcRow | ApRow | null): Values => ({
  devName: device?.devName ?? '',
  devSN: device?.devSN ?? '',
  devMac: device?.devMac ?? '',
  devModel: device?.devModel ?? '',
  devType: device?.devType ?? '',
  acId: device && 'acId' in device ? String(device.acId) : null,
  regionId: device?.regionId ?? null,
  poleId: device?.poleId ?? null,
});

const Kind = { ac: 'Ac', ap: 'Ap' } as const;

/**
 * Add or edit an access controller's or an access point's record: the spec's Wi-Fi device fields, an access point's
 * controller, its region and its pole; the server's refusals stand under their fields.
 */
export function WifiFormModal({ kind, device, onClose }: { kind: WifiKind; device: AcRow | ApRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const save = useSaveWifiDevice(kind);
  const acs = useAcOptions();
  const roles = useSession((s) => s.roles);
  const mayPickPole = canOpen(ROUTE_TABLE, '/lampPole/poleManage', roles);
  const form = useForm<Values>({
    initialValues: valuesOf(device),
    validate: {
      devName: (v) => (v.trim() ? null : t('messages:nameEmpty')),
      devSN: (v) => deviceCodeError(t, v) ?? null,
      devMac: (v) => (!v.trim() ? t('messages:pleaseEnter') : MAC_PATTERN.test(v.trim()) ? null : t('wifi:list.macInvalid')),
      acId: (v) => (kind === 'ap' && !v ? t('messages:pleaseSelect') : null),
    },
  });
  useEffect(() => {
    form.setValues(valuesOf(device));
    form.resetDirty();
    form.clearErrors();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when its target changes
  }, [device]);

  const submit = form.onSubmit(async (values) => {
    await saveAndClose(
      () =>
        save.mutateAsync({
          ...(device ? { id: device.id } : {}),
          devName: values.devName.trim(),
          devSN: values.devSN.trim(),
          devMac: values.devMac.trim(),
          devModel: values.devModel.trim(),
          devType: values.devType.trim(),
          ...(kind === 'ap' ? { acId: Number(values.acId) } : {}),
          regionId: values.regionId,
          ...(mayPickPole ? { poleId: values.poleId } : {}),
        }),
      { updated: Boolean(device), close: onClose, setErrors: form.setErrors },
    );
  });

  const text = (field: 'devName' | 'devSN' | 'devMac' | 'devModel' | 'devType', max: number, required = true) => (
    <TextInput label={t(`wifi:fields.${field}`)} required={required} maxLength={max} name={field} {...form.getInputProps(field)} />
  );

  return (
    <Modal opened onClose={onClose} title={t(`wifi:list.${device ? 'edit' : 'add'}${Kind[kind]}`)} size="lg" fullScreen={mobile}>
      <form onSubmit={submit} noValidate data-testid="wifi-form">
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {text('devName', WIFI_NAME_MAX)}
            {text('devSN', 64)}
            {text('devMac', 17)}
            {text('devModel', WIFI_LABEL_MAX, false)}
            {text('devType', WIFI_LABEL_MAX, false)}
            {kind === 'ap' && (
              <Select
                label={t('wifi:fields.ac')}
                required
                searchable
                data={acs.data ?? []}
                {...form.getInputProps('acId')}
                data-testid="wifi-form-ac"
              />
            )}
            <AreaCascader label={t('wifi:fields.region')} value={form.values.regionId} onChange={(id) => form.setFieldValue('regionId', id)} />
            {mayPickPole && (
              <PoleField
                label={t('wifi:fields.pole')}
                placeholder={t('wifi:list.noPole')}
                value={form.values.poleId}
                current={device}
                onChange={(id) => form.setFieldValue('poleId', id)}
                testId="wifi-form-pole"
              />
            )}
          </SimpleGrid>
          <FormActions onCancel={onClose} loading={save.isPending} testId="wifi-form-save" />
        </Stack>
      </form>
    </Modal>
  );
}
