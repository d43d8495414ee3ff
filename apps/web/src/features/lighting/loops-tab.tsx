import { useEffect, useState } from 'react';
import { Table, TextInput } from '@mantine/core';
import { NameFilter } from '@/components/filter-fields';
import { Select } from '@/components/select';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, GATEWAY_NAME_MAX, type LoopRow } from '@sc/contracts';
import { FilterBar } from '@/components/page-panel';
import { TableFooter } from '@/components/table-footer';
import { EditDeleteCell } from '@/components/row-actions';
import { TableEmptyRow } from '@/components/table-parts';
import { ColumnCells, ColumnHeads, OneLine, TableBox, useTableColumns } from '@/components/table-columns';
import { usePagedFilters } from '@/components/use-paged-filters';
import { deleteAfterConfirm } from '@/components/confirm';
import { deviceCodeError } from '@/utils/device-code';
import { FormDialog, saveAndClose, useFormDialog } from '@/components/form-actions';
import { useButton } from '@/auth/session-store';
import { useDeleteLoop, useGatewayOptions, useLoopPage, useSaveLoop } from './equipment-api';
import { EquipmentToolbar } from './equipment-toolbar';
import { GatewayFilter } from './lamp-filters';

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
      code: deviceCodeError(t, values.code),
      name: values.name.trim() ? undefined : t('messages:nameEmpty'),
    };
    if (Object.values(problems).some(Boolean)) return setErrors(problems);
    await saveAndClose(
      () =>
        save.mutateAsync({
          ...(loop ? { id: loop.id } : {}),
          gatewayId: values.gatewayId!,
          code: values.code.trim(),
          name: values.name.trim(),
          remark: values.remark,
        }),
      { updated: Boolean(loop), close: onClose, setErrors: setErrors },
    );
  };
  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={t(loop ? 'lighting:equipment.editLoop' : 'lighting:equipment.addLoop')}
      onSubmit={submit}
      busy={save.isPending}
      testId="loop-form"
      submitTestId="loop-save"
    >
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
    </FormDialog>
  );
}

/** The loops (circuits) of each gateway; a lamp is bound to one of them. */
export function LoopsTab() {
  const { t } = useTranslation();
  const { filters, field, query, filterBar, footer } = usePagedFilters<{ gatewayId?: string; name?: string }>();
  const loops = useLoopPage(query);
  const gateways = useGatewayOptions();
  const remove = useDeleteLoop();
  const canEdit = useButton(ButtonPermission.Edit);
  const canDelete = useButton(ButtonPermission.Delete);
  const form = useFormDialog<LoopRow>();
  const rows = loops.data?.list ?? [];
  const columns = useTableColumns<LoopRow>('loops', [
    { key: 'code', label: t('lighting:fields.code'), td: { ff: 'monospace' }, cell: (loop) => loop.code },
    { key: 'name', label: t('lighting:fields.name'), always: true, cell: (loop) => <OneLine fw={500}>{loop.name}</OneLine> },
    { key: 'gateway', label: t('lighting:fields.gatewayId'), cell: (loop) => <OneLine>{`${loop.gatewayId} · ${loop.gatewayName}`}</OneLine> },
    { key: 'lamps', label: t('lighting:equipment.lamps'), cell: (loop) => loop.lampCount },
    { key: 'remark', label: t('lighting:fields.remark'), cell: (loop) => <OneLine maw="20rem">{loop.remark || '—'}</OneLine> },
  ]);
  return (
    <>
      <FilterBar {...filterBar} testId="loop">
        <GatewayFilter gateways={gateways.data} {...field('gatewayId')} width={220} />
        <NameFilter label={t('lighting:fields.name')} {...field('name')} width={200} />
      </FilterBar>
      <EquipmentToolbar kind="loop" addLabel={t('lighting:equipment.addLoop')} onAdd={() => form.open(null)} onRefresh={() => void loops.refetch()} />
      <TableBox>
        <Table striped data-testid="loop-table">
          <ColumnHeads columns={columns} actions={canEdit || canDelete} />
          <Table.Tbody>
            {rows.length === 0 && !loops.isLoading && <TableEmptyRow colSpan={columns.span()} py="lg" />}
            {rows.map((loop) => (
              <Table.Tr key={loop.id} data-testid={`loop-row-${loop.gatewayId}-${loop.code}`}>
                <ColumnCells columns={columns} row={loop} />
                <EditDeleteCell
                  canEdit={canEdit}
                  canDelete={canDelete}
                  onEdit={() => form.open(loop)}
                  onDelete={() => void deleteAfterConfirm(loop.name, () => remove.mutateAsync(loop.id), t('common:feedback.deleted'))}
                />
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableBox>
      <TableFooter {...footer(loops.data?.total ?? 0)} />
      <LoopFormModal opened={form.opened} loop={form.row} gatewayId={filters.gatewayId} onClose={form.close} />
    </>
  );
}
