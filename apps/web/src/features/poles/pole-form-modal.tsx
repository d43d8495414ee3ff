import { useEffect, useState } from 'react';
import { ActionIcon, Button, Group, Modal, Popover, Select, SimpleGrid, Stack, TextInput, Textarea, Tooltip } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { NUMBER_BOUNDS, POLE_NAME_MAX, type PoleRow } from '@sc/contracts';
import { BoundedNumberInput, positionErrors } from '@/components/bounded-number-input';
import { AreaCascader } from '@/components/area-cascader';
import { fieldErrors } from '@/api/field-errors';
import { notifySuccess } from '@/components/notify';
import { FormActions, saveAndClose } from '@/components/form-actions';
import { deviceCodeError } from '@/utils/device-code';
import { useIsMobile } from '@/layout/use-is-mobile';
import { useAddPoleGroup, usePoleGroups, useSavePole } from './api';

interface Values {
  name: string;
  code: string;
  regionId: number | null;
  groupId: string | null;
  latitude: number | string;
  longitude: number | string;
  address: string;
  remark: string;
}

const valuesOf = (pole: PoleRow | null): Values => ({
  name: pole?.name ?? '',
  code: pole?.code ?? '',
  regionId: pole?.regionId ?? null,
  groupId: pole?.groupId ? String(pole.groupId) : null,
  latitude: pole?.latitude ?? '',
  longitude: pole?.longitude ?? '',
  address: pole?.address ?? '',
  remark: pole?.remark ?? '',
});

const coordinate = (v: number | string): number | null => (v === '' ? null : Number(v));

/** A new pole group, named in a small popover beside the group select. */
function AddGroup({ onAdded }: { onAdded: (id: number) => void }) {
  const { t } = useTranslation();
  const add = useAddPoleGroup();
  const [opened, setOpened] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = async () => {
    if (!name.trim()) return setError(t('messages:enterGroupName'));
    try {
      const { id } = await add.mutateAsync(name.trim());
      notifySuccess(t('poles:list.groupAdded', { name: name.trim() }));
      onAdded(id);
      setOpened(false);
      setName('');
    } catch (e) {
      setError(fieldErrors(e).name);
    }
  };
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" withArrow trapFocus>
      <Popover.Target>
        <Tooltip label={t('poles:list.addGroup')}>
          <ActionIcon variant="default" size="lg" mb={1} onClick={() => setOpened((o) => !o)} aria-label={t('poles:list.addGroup')}>
            <IconPlus size={16} />
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown>
        <Group align="flex-end" gap="xs">
          <TextInput label={t('poles:list.groupName')} value={name} maxLength={64} error={error} onChange={(e) => setName(e.currentTarget.value)} />
          <Button loading={add.isPending} onClick={() => void submit()}>
            {t('common:actions.save')}
          </Button>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}

/** Add or edit a pole: name, code, region, group, position, address and remark. */
export function PoleFormModal({
  opened,
  pole,
  canAddGroup,
  onClose,
}: {
  opened: boolean;
  pole: PoleRow | null;
  canAddGroup: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const save = useSavePole();
  const groups = usePoleGroups();
  const form = useForm<Values>({
    initialValues: valuesOf(pole),
    validate: {
      name: (v) => (v.trim() ? null : t('messages:nameEmpty')),
      code: (v) => deviceCodeError(t, v) ?? null,
      latitude: (v, all) => positionErrors(t, v, all.longitude).latitude,
      longitude: (v, all) => positionErrors(t, all.latitude, v).longitude,
    },
  });
  useEffect(() => {
    if (opened) {
      form.setValues(valuesOf(pole));
      form.resetDirty();
      form.clearErrors();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the dialog opens or its target changes
  }, [opened, pole]);

  const submit = form.onSubmit(async (v) => {
    await saveAndClose(
      () =>
        save.mutateAsync({
          ...(pole ? { id: pole.id } : {}),
          name: v.name.trim(),
          code: v.code.trim(),
          regionId: v.regionId,
          groupId: v.groupId === null ? null : Number(v.groupId),
          latitude: coordinate(v.latitude),
          longitude: coordinate(v.longitude),
          address: v.address.trim(),
          remark: v.remark.trim(),
        }),
      { updated: Boolean(pole), close: onClose, setErrors: form.setErrors },
    );
  });

  return (
    <Modal opened={opened} onClose={onClose} title={t(pole ? 'poles:list.edit' : 'poles:list.add')} size="lg" fullScreen={mobile}>
      <form onSubmit={submit} noValidate data-testid="pole-form">
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('poles:fields.name')} required maxLength={POLE_NAME_MAX} name="name" {...form.getInputProps('name')} />
            <TextInput label={t('poles:fields.code')} required maxLength={64} name="code" {...form.getInputProps('code')} />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <AreaCascader
              label={t('poles:fields.region')}
              width="100%"
              value={form.values.regionId}
              onChange={(id) => form.setFieldValue('regionId', id)}
            />
            <Group gap="xs" align="flex-end" wrap="nowrap">
              <Select
                label={t('poles:fields.group')}
                clearable
                style={{ flex: 1 }}
                data={(groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name }))}
                {...form.getInputProps('groupId')}
                data-testid="pole-group"
              />
              {canAddGroup && <AddGroup onAdded={(id) => form.setFieldValue('groupId', String(id))} />}
            </Group>
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <BoundedNumberInput
              label={t('poles:fields.longitude')}
              bounds={NUMBER_BOUNDS.longitude}
              name="longitude"
              {...form.getInputProps('longitude')}
            />
            <BoundedNumberInput
              label={t('poles:fields.latitude')}
              bounds={NUMBER_BOUNDS.latitude}
              name="latitude"
              {...form.getInputProps('latitude')}
            />
          </SimpleGrid>
          <TextInput label={t('poles:fields.address')} maxLength={255} name="address" {...form.getInputProps('address')} />
          <Textarea label={t('poles:fields.remark')} maxLength={255} autosize minRows={2} name="remark" {...form.getInputProps('remark')} />
          <FormActions onCancel={onClose} loading={save.isPending} testId="pole-save" />
        </Stack>
      </form>
    </Modal>
  );
}
