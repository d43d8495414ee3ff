import { useEffect } from 'react';
import { Modal, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { RADAR_NAME_MAX, type RadarRow } from '@sc/contracts';
import { useSession } from '@/auth/session-store';
import { AreaCascader } from '@/components/area-cascader';
import { FormActions, saveAndClose } from '@/components/form-actions';
import { PoleField } from '@/features/poles/pole-field';
import { useIsMobile } from '@/layout/use-is-mobile';
import { canOpen } from '@/navigation/permitted-routes';
import { ROUTE_TABLE } from '@/navigation/route-table';
import { deviceCodeError } from '@/utils/device-code';
import { useSaveRadar } from './api';

interface Values {
  radarName: string;
  code: string;
  regionId: number | null;
  poleId: number | null;
}

const valuesOf = (radar: RadarRow | null): Values => ({
  radarName: radar?.radarName ?? '',
  code: radar?.code ?? '',
  regionId: radar?.regionId ?? null,
  poleId: radar?.poleId ?? null,
});

/** Add or edit a radar's record: its name, its code (its MQTT identity), its region and its pole; the rest it reports. */
export function RadarFormModal({ opened, radar, onClose }: { opened: boolean; radar: RadarRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const save = useSaveRadar();
  const roles = useSession((s) => s.roles);
  const mayPickPole = canOpen(ROUTE_TABLE, '/lampPole/poleManage', roles);
  const form = useForm<Values>({
    initialValues: valuesOf(radar),
    validate: {
      radarName: (v) => (v.trim() ? null : t('messages:nameEmpty')),
      code: (v) => deviceCodeError(t, v) ?? null,
    },
  });
  useEffect(() => {
    if (opened) {
      form.setValues(valuesOf(radar));
      form.resetDirty();
      form.clearErrors();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the dialog opens or its target changes
  }, [opened, radar]);

  const submit = form.onSubmit(async (values) => {
    await saveAndClose(
      () =>
        save.mutateAsync({
          ...(radar ? { id: radar.id } : {}),
          radarName: values.radarName.trim(),
          code: values.code.trim(),
          regionId: values.regionId,
          ...(mayPickPole ? { poleId: values.poleId } : {}),
        }),
      { updated: Boolean(radar), close: onClose, setErrors: form.setErrors },
    );
  });

  return (
    <Modal opened={opened} onClose={onClose} title={t(radar ? 'radar:list.edit' : 'radar:list.add')} size="lg" fullScreen={mobile}>
      <form onSubmit={submit} noValidate data-testid="radar-form">
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('radar:fields.radarName')}
              required
              maxLength={RADAR_NAME_MAX}
              name="radarName"
              {...form.getInputProps('radarName')}
            />
            <TextInput label={t('radar:fields.code')} required maxLength={64} name="code" {...form.getInputProps('code')} />
            <AreaCascader label={t('radar:fields.region')} value={form.values.regionId} onChange={(id) => form.setFieldValue('regionId', id)} />
            {mayPickPole && (
              <PoleField
                label={t('radar:fields.pole')}
                placeholder={t('radar:list.noPole')}
                value={form.values.poleId}
                current={radar}
                onChange={(id) => form.setFieldValue('poleId', id)}
                testId="radar-form-pole"
              />
            )}
          </SimpleGrid>
          <FormActions onCancel={onClose} loading={save.isPending} testId="radar-form-save" />
        </Stack>
      </form>
    </Modal>
  );
}
