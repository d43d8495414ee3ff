import { useState } from 'react';
import { Button, Divider, Group, Modal, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { REGION_NAME_MAX, REGION_REMARK_MAX, type AreaTreeNode, type RegionRequest } from '@sc/contracts';
import { post } from '@/api/request';
import { fieldErrors } from '@/api/field-errors';
import { notifySuccess } from '@/components/notify';
import { AreaCascader } from '@/components/area-cascader';
import { AREA_TREE_KEY } from './area-tree';
import { subtreeIds } from './region-tree-utils';
import { useIsMobile } from '@/layout/use-is-mobile';

/** What the dialog is for: a new region (top level, or under `parentId`), or changing `node`. */
export type RegionFormTarget = { mode: 'create'; parentId: number | null } | { mode: 'edit'; node: AreaTreeNode };

interface RegionFormValues {
  regionName: string;
  parentRegion: number | null;
  zhCn: string;
  enUs: string;
  remark: string;
}

function initialValues(target: RegionFormTarget): RegionFormValues {
  if (target.mode === 'create') return { regionName: '', parentRegion: target.parentId, zhCn: '', enUs: '', remark: '' };
  const { node } = target;
  return { regionName: node.name, parentRegion: node.parentId, zhCn: node.zhCn ?? '', enUs: node.enUs ?? '', remark: node.remark ?? '' };
}

/**
 * Add or edit a region. The server keeps fields an edit leaves out, so an edit sends every field, including
 * parentRegion: null to move the region to the top level.
 */
export function RegionFormModal({
  target,
  opened,
  onClose,
  onSaved,
}: {
  target: RegionFormTarget | null;
  opened: boolean;
  onClose: () => void;
  onSaved: (saved: { id: number; parentRegion: number | null }) => void;
}) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  // Keeps the last target while the dialog closes, so its content does not vanish mid-animation.
  const [shown, setShown] = useState(target);
  if (target && target !== shown) setShown(target);
  const title =
    shown?.mode === 'edit'
      ? t('region:editTitle')
      : shown?.mode === 'create' && shown.parentId !== null
        ? t('region:createChildTitle')
        : t('region:createTitle');
  return (
    <Modal opened={opened} onClose={onClose} title={<Text fw={600}>{title}</Text>} size="lg" fullScreen={mobile} data-testid="region-dialog">
      {shown && (
        <RegionForm key={shown.mode === 'edit' ? `e${shown.node.id}` : `c${shown.parentId}`} target={shown} onClose={onClose} onSaved={onSaved} />
      )}
    </Modal>
  );
}

function RegionForm({
  target,
  onClose,
  onSaved,
}: {
  target: RegionFormTarget;
  onClose: () => void;
  onSaved: (saved: { id: number; parentRegion: number | null }) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm<RegionFormValues>({
    initialValues: initialValues(target),
    validate: {
      regionName: (value) => (value.trim() ? null : t('messages:nameEmpty')),
    },
  });

  const save = useMutation({
    mutationFn: async (values: RegionFormValues) => {
      const fields = { regionName: values.regionName.trim(), zhCn: values.zhCn.trim(), enUs: values.enUs.trim(), remark: values.remark.trim() };
      if (target.mode === 'edit') {
        const body: RegionRequest = { id: target.node.id, ...fields, parentRegion: values.parentRegion };
        await post<null>('/bi/area/edit', body);
        return target.node.id;
      }
      const body: RegionRequest = values.parentRegion === null ? fields : { ...fields, parentRegion: values.parentRegion };
      return (await post<{ id: number }>('/bi/area/add', body)).id;
    },
    onSuccess: async (id, values) => {
      notifySuccess(t(target.mode === 'edit' ? 'common:feedback.updated' : 'common:feedback.created'));
      await queryClient.invalidateQueries({ queryKey: AREA_TREE_KEY });
      onSaved({ id, parentRegion: values.parentRegion });
    },
    // The toast already shows the message; field errors also go under their inputs.
    onError: (error) => form.setErrors(fieldErrors(error)),
  });

  const locked = target.mode === 'edit' ? subtreeIds(target.node) : [];

  return (
    <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
      <Stack gap="md">
        <AreaCascader
          label={t('fields:parentRegion')}
          description={t('region:form.parentHint')}
          placeholder={t('region:form.topLevel')}
          value={form.values.parentRegion}
          onChange={(id) => form.setFieldValue('parentRegion', id)}
          error={form.errors.parentRegion}
          disabledIds={locked}
          width="100%"
          name="parentRegion"
          data-testid="region-parent"
        />
        <TextInput
          label={t('fields:regionName')}
          placeholder={t('region:form.regionNamePlaceholder')}
          required
          maxLength={REGION_NAME_MAX}
          name="regionName"
          data-autofocus
          {...form.getInputProps('regionName')}
        />
        <Divider label={t('region:form.namesTitle')} labelPosition="left" mt={4} />
        <Text size="xs" c="dimmed" mt={-8}>
          {t('region:form.namesHint')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label={t('fields:zhCn')}
            placeholder={t('region:form.zhCnPlaceholder')}
            maxLength={REGION_NAME_MAX}
            name="zhCn"
            lang="zh-CN"
            {...form.getInputProps('zhCn')}
          />
          <TextInput
            label={t('fields:enUs')}
            placeholder={t('region:form.enUsPlaceholder')}
            maxLength={REGION_NAME_MAX}
            name="enUs"
            lang="en"
            {...form.getInputProps('enUs')}
          />
        </SimpleGrid>
        <Textarea
          label={t('fields:remark')}
          placeholder={t('region:form.remarkPlaceholder')}
          autosize
          minRows={2}
          maxRows={6}
          maxLength={REGION_REMARK_MAX}
          name="remark"
          {...form.getInputProps('remark')}
        />
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={onClose}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="region-save">
            {t('common:actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
