import { useEffect, useState } from 'react';
import { ActionIcon, Button, Group, Modal, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { Select } from '@/components/select';
import { IconEdit, IconPlus, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, DEVICE_CODE_PATTERN, GATEWAY_NAME_MAX, type LoopRow } from '@sc/contracts';
import { FilterBar } from '@/components/page-panel';
import { TableFooter } from '@/components/table-footer';
import { confirmDelete } from '@/components/confirm';
import { notifySuccess } from '@/components/notify';
import { fieldErrors } from '@/api/field-errors';
import { useButton } from '@/auth/session-store';
import { useDeleteLoop, useGatewayOptions, useLoopPage, useSaveLoop } from './equipment-api';
import { ImportSlot } from './import-slot';

interface FormValues {
  gatewayId: string | null;
  code: string;
  name: string;
  remark: string;
}

function LoopFormModal({ opened, loop, gatewayId, onClose }: { opened: boolean; loop: LoopRow | null; gatewayId?: string; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveLoop();
  const gateways = useGatewayOptions(opened);
  const [values, setValues] = useState<FormValues>({ gatewayId: null, code: '', name: '', remark: '' });
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  useEffect(() => {
    if (!opened) return;
    setValues({ gatewayId: loop?.gatewayId ?? gatewayId ?? null, code: loop?.code ?? '', name: loop?.name ?? '', remark: loop?.remark ?? '' });
    setErrors({});
  }, [opened, loop, gatewayId]);
  const submit = async () => {
    const problems = {
      gatewayId: values.gatewayId ? undefined : t('messages:pleaseSelect'),
      code: !values.code.trim()
        ? t('messages:pleaseEnter')
        : DEVICE_CODE_PATTERN.test(values.code.trim())
          ? undefined
          : t('messages:clientIdInvalid'),
      name: values.name.trim() ? undefined : t('messages:nameEmpty'),
    };
    if (Object.values(problems).some(Boolean)) return setErrors(problems);
    try {
      await save.mutateAsync({
        ...(loop ? { id: loop.id } : {}),
        gatewayId: values.gatewayId!,
        code: values.code.trim(),
        name: values.name.trim(),
        remark: values.remark,
      });
      notifySuccess(t(loop ? 'common:feedback.updated' : 'common:feedback.created'));
      onClose();
    } catch (error) {
      setErrors(fieldErrors(error));
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t(loop ? 'lighting:equipment.editLoop' : 'lighting:equipment.addLoop')}>
      <form
        noValidate
        data-testid="loop-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack>
          <Select
            label={t('lighting:fields.gatewayId')}
            required
            searchable
            data={(gateways.data ?? []).map((g) => ({ value: g.gatewayId, label: `${g.gatewayId} · ${g.name}` }))}
            value={values.gatewayId}
            onChange={(v) => setValues({ ...values, gatewayId: v })}
            error={errors.gatewayId}
          />
          <TextInput
            label={t('lighting:fields.code')}
            required
            maxLength={64}
            name="code"
            value={values.code}
            onChange={(e) => setValues({ ...values, code: e.currentTarget.value })}
            error={errors.code}
          />
          <TextInput
            label={t('lighting:fields.name')}
            required
            maxLength={GATEWAY_NAME_MAX}
            name="name"
            value={values.name}
            onChange={(e) => setValues({ ...values, name: e.currentTarget.value })}
            error={errors.name}
          />
          <TextInput
            label={t('lighting:fields.remark')}
            maxLength={255}
            value={values.remark}
            onChange={(e) => setValues({ ...values, remark: e.currentTarget.value })}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common:actions.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} data-testid="loop-save">
              {t('common:actions.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The loops (circuits) of each gateway; a lamp is bound to one of them. */
export function LoopsTab() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<{ gatewayId?: string; name?: string }>({});
  const [draft, setDraft] = useState<{ gatewayId?: string; name?: string }>({});
  const [page, setPage] = useState({ pageNum: 1, pageSize: 20 });
  const loops = useLoopPage({ ...filters, ...page });
  const gateways = useGatewayOptions();
  const remove = useDeleteLoop();
  const canAdd = useButton(ButtonPermission.Add);
  const canEdit = useButton(ButtonPermission.Edit);
  const canDelete = useButton(ButtonPermission.Delete);
  const canRefresh = useButton(ButtonPermission.Refresh);
  const [form, setForm] = useState<{ opened: boolean; loop: LoopRow | null }>({ opened: false, loop: null });
  const rows = loops.data?.list ?? [];
  const del = async (loop: LoopRow) => {
    if (!(await confirmDelete(loop.name))) return;
    try {
      await remove.mutateAsync(loop.id);
      notifySuccess(t('common:feedback.deleted'));
    } catch {
      // The refusal is already on screen.
    }
  };
  return (
    <>
      <FilterBar
        onSubmit={() => {
          setFilters({ ...draft, name: draft.name?.trim() || undefined });
          setPage((p) => ({ ...p, pageNum: 1 }));
        }}
        onReset={() => {
          setDraft({});
          setFilters({});
        }}
        testId="loop"
      >
        <Select
          label={t('lighting:fields.gatewayId')}
          placeholder={t('lighting:list.all')}
          clearable
          searchable
          data={(gateways.data ?? []).map((g) => ({ value: g.gatewayId, label: `${g.gatewayId} · ${g.name}` }))}
          value={draft.gatewayId ?? null}
          onChange={(v) => setDraft({ ...draft, gatewayId: v ?? undefined })}
          w={{ base: '100%', sm: 220 }}
        />
        <TextInput
          label={t('lighting:fields.name')}
          value={draft.name ?? ''}
          onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })}
          w={{ base: '100%', sm: 200 }}
        />
      </FilterBar>
      <Group gap="xs" mb="sm">
        {canAdd && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setForm({ opened: true, loop: null })} data-testid="loop-add">
            {t('lighting:equipment.addLoop')}
          </Button>
        )}
        {canRefresh && (
          <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={() => void loops.refetch()}>
            {t('lighting:equipment.refresh')}
          </Button>
        )}
        <ImportSlot kind="loop" onImported={() => void loops.refetch()} />
      </Group>
      <Table striped data-testid="loop-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('lighting:fields.code')}</Table.Th>
            <Table.Th>{t('lighting:fields.name')}</Table.Th>
            <Table.Th>{t('lighting:fields.gatewayId')}</Table.Th>
            <Table.Th>{t('lighting:equipment.lamps')}</Table.Th>
            <Table.Th>{t('lighting:fields.remark')}</Table.Th>
            {(canEdit || canDelete) && <Table.Th ta="right">{t('common:actions.operations')}</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 && !loops.isLoading && (
            <Table.Tr>
              <Table.Td colSpan={6}>
                <Text c="dimmed" ta="center" py="lg">
                  {t('common:feedback.noData')}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {rows.map((loop) => (
            <Table.Tr key={loop.id} data-testid={`loop-row-${loop.gatewayId}-${loop.code}`}>
              <Table.Td ff="monospace">{loop.code}</Table.Td>
              <Table.Td fw={500}>{loop.name}</Table.Td>
              <Table.Td>{`${loop.gatewayId} · ${loop.gatewayName}`}</Table.Td>
              <Table.Td>{loop.lampCount}</Table.Td>
              <Table.Td>{loop.remark || '—'}</Table.Td>
              {(canEdit || canDelete) && (
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    {canEdit && (
                      <Tooltip label={t('common:actions.edit')}>
                        <ActionIcon onClick={() => setForm({ opened: true, loop })} aria-label={t('common:actions.edit')}>
                          <IconEdit size={18} />
                        </ActionIcon>
                      </Tooltip>
                    )}
                    {canDelete && (
                      <Tooltip label={t('common:actions.delete')}>
                        <ActionIcon color="red" onClick={() => void del(loop)} aria-label={t('common:actions.delete')}>
                          <IconTrash size={18} />
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </Group>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <TableFooter
        total={loops.data?.total ?? 0}
        pageNum={page.pageNum}
        pageSize={page.pageSize}
        onChange={(p) => setPage((old) => ({ ...old, ...p }))}
      />
      <LoopFormModal opened={form.opened} loop={form.loop} gatewayId={filters.gatewayId} onClose={() => setForm((f) => ({ ...f, opened: false }))} />
    </>
  );
}
