import { useEffect, useState } from 'react';
import { Button, SimpleGrid, Table, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, DeviceFamily, GATEWAY_NAME_MAX, NUMBER_BOUNDS, OnlineState, type GatewayRow } from '@sc/contracts';
import { BoundedNumberInput, positionErrors } from '@/components/bounded-number-input';
import { AreaCascader } from '@/components/area-cascader';
import { NameFilter } from '@/components/filter-fields';
import { FilterBar } from '@/components/page-panel';
import { TableFooter } from '@/components/table-footer';
import { EditDeleteCell } from '@/components/row-actions';
import { useLiveGateways } from './equipment-live';
import { RenewMqttAction } from '@/components/renew-mqtt-action';
import { TableEmptyRow } from '@/components/table-parts';
import { ColumnCells, ColumnHeads, OneLine, TableBox, useTableColumns } from '@/components/table-columns';
import { usePagedFilters } from '@/components/use-paged-filters';
import { deleteAfterConfirm } from '@/components/confirm';
import { deviceCodeError } from '@/utils/device-code';
import { FormDialog, saveAndClose, useFormDialog } from '@/components/form-actions';
import { useButton } from '@/auth/session-store';
import { formatTime } from '@/utils/format';
import { useDeleteGateway, useGatewayPage, useSaveGateway } from './equipment-api';
import { EquipmentToolbar } from './equipment-toolbar';
import { NetworkBadge } from './lamp-badges';
import { NetworkFilter } from './lamp-filters';
import { useRegionLabel } from '@/features/region/area-tree';

interface Filters {
  name?: string;
  regionId?: number;
  networkStatus?: OnlineState;
}

interface FormValues {
  gatewayId: string;
  name: string;
  regionId: number | null;
  addr: string;
  latitude: number | string;
  longitude: number | string;
}

const valuesOf = (g: GatewayRow | null): FormValues => ({
  gatewayId: g?.gatewayId ?? '',
  name: g?.name ?? '',
  regionId: g?.regionId ?? null,
  addr: g?.addr ?? '',
  latitude: g?.latitude ?? '',
  longitude: g?.longitude ?? '',
});

const coordinate = (v: number | string): number | null => (v === '' ? null : Number(v));

/** Add or edit a gateway; a changed code (its MQTT identity) also needs Edit MQTT, and its lamps follow it. */
function GatewayFormModal({ opened, gateway, onClose }: { opened: boolean; gateway: GatewayRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveGateway();
  const canEditMqtt = useButton(ButtonPermission.EditMqtt);
  const [values, setValues] = useState<FormValues>(valuesOf(gateway));
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  useEffect(() => {
    if (opened) {
      setValues(valuesOf(gateway));
      setErrors({});
    }
  }, [opened, gateway]);
  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  const submit = async () => {
    const problems = {
      gatewayId: deviceCodeError(t, values.gatewayId),
      name: values.name.trim() ? undefined : t('messages:nameEmpty'),
      ...positionErrors(t, values.latitude, values.longitude),
    };
    if (Object.values(problems).some(Boolean)) return setErrors(problems);
    await saveAndClose(
      () =>
        save.mutateAsync({
          ...(gateway ? { id: gateway.id } : {}),
          gatewayId: values.gatewayId.trim(),
          name: values.name.trim(),
          regionId: values.regionId,
          addr: values.addr,
          latitude: coordinate(values.latitude),
          longitude: coordinate(values.longitude),
        }),
      { updated: Boolean(gateway), close: onClose, setErrors: setErrors },
    );
  };
  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={t(gateway ? 'lighting:equipment.editGateway' : 'lighting:equipment.addGateway')}
      size="lg"
      onSubmit={submit}
      busy={save.isPending}
      testId="gateway-form"
      submitTestId="gateway-save"
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={t('lighting:fields.gatewayId')}
          required
          maxLength={64}
          name="gatewayId"
          disabled={gateway !== null && !canEditMqtt}
          value={values.gatewayId}
          onChange={(e) => set('gatewayId', e.currentTarget.value)}
          error={errors.gatewayId}
        />
        <TextInput
          label={t('lighting:fields.name')}
          required
          maxLength={GATEWAY_NAME_MAX}
          name="name"
          value={values.name}
          onChange={(e) => set('name', e.currentTarget.value)}
          error={errors.name}
        />
      </SimpleGrid>
      <AreaCascader label={t('lighting:fields.region')} width="100%" value={values.regionId} onChange={(id) => set('regionId', id)} />
      <TextInput
        label={t('lighting:fields.addr')}
        maxLength={255}
        name="addr"
        value={values.addr}
        onChange={(e) => set('addr', e.currentTarget.value)}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <BoundedNumberInput
          label={t('lighting:fields.latitude')}
          bounds={NUMBER_BOUNDS.latitude}
          value={values.latitude}
          onChange={(v) => set('latitude', v)}
          error={errors.latitude}
        />
        <BoundedNumberInput
          label={t('lighting:fields.longitude')}
          bounds={NUMBER_BOUNDS.longitude}
          value={values.longitude}
          onChange={(v) => set('longitude', v)}
          error={errors.longitude}
        />
      </SimpleGrid>
    </FormDialog>
  );
}

/** The gateways (concentrators): their own record, region, position, and online state from their MQTT state. */
export function GatewaysTab({ onOpenLamps }: { onOpenLamps: (gatewayId: string) => void }) {
  const { t } = useTranslation();
  const regionLabel = useRegionLabel();
  const { draft, setDraft, field, query, filterBar, footer } = usePagedFilters<Filters>();
  const gateways = useGatewayPage(query);
  useLiveGateways();
  const remove = useDeleteGateway();
  const canEdit = useButton(ButtonPermission.Edit);
  const canDelete = useButton(ButtonPermission.Delete);
  const form = useFormDialog<GatewayRow>();
  const rows = gateways.data?.list ?? [];
  const columns = useTableColumns<GatewayRow>('gateways', [
    { key: 'gatewayId', label: t('lighting:fields.gatewayId'), td: { ff: 'monospace' }, cell: (g) => g.gatewayId },
    { key: 'name', label: t('lighting:fields.name'), always: true, cell: (g) => <OneLine fw={500}>{g.name}</OneLine> },
    { key: 'region', label: t('lighting:fields.region'), cell: (g) => <OneLine maw="10rem">{regionLabel(g)}</OneLine> },
    { key: 'addr', label: t('lighting:fields.addr'), hidden: true, cell: (g) => <OneLine>{g.addr || '—'}</OneLine> },
    {
      key: 'position',
      label: t('lighting:fields.position'),
      hidden: true,
      cell: (g) => (g.latitude === null || g.longitude === null ? '—' : `${g.latitude.toFixed(4)}, ${g.longitude.toFixed(4)}`),
    },
    { key: 'network', label: t('lighting:fields.networkStatus'), cell: (g) => <NetworkBadge networkStatus={g.networkStatus} /> },
    { key: 'loops', label: t('lighting:equipment.loops'), cell: (g) => g.loopCount },
    {
      key: 'lamps',
      label: t('lighting:equipment.lampsOnline'),
      cell: (g) => (
        <Button variant="subtle" size="compact-sm" onClick={() => onOpenLamps(g.gatewayId)} data-testid="gateway-lamps">
          {`${g.onlineLampCount} / ${g.lampCount}`}
        </Button>
      ),
    },
    {
      key: 'versions',
      label: t('lighting:fields.versions'),
      hidden: true,
      cell: (g) => (g.hardwareVersion || g.softwareVersion ? `${g.hardwareVersion} / ${g.softwareVersion}` : '—'),
    },
    { key: 'reportedAt', label: t('lighting:fields.reportedAt'), cell: (g) => (g.reportedAt ? formatTime(g.reportedAt) : t('lighting:list.never')) },
  ]);
  return (
    <>
      <FilterBar {...filterBar} testId="gateway">
        <NameFilter label={t('lighting:fields.name')} placeholder={t('lighting:equipment.gatewaySearch')} {...field('name')} width={200} />
        <AreaCascader
          label={t('lighting:fields.region')}
          value={draft.regionId ?? null}
          onChange={(id) => setDraft({ ...draft, regionId: id ?? undefined })}
        />
        <NetworkFilter {...field('networkStatus')} />
      </FilterBar>
      <EquipmentToolbar
        kind="gateway"
        addLabel={t('lighting:equipment.addGateway')}
        onAdd={() => form.open(null)}
        onRefresh={() => void gateways.refetch()}
      />
      <TableBox>
        <Table striped data-testid="gateway-table">
          <ColumnHeads columns={columns} actions={canEdit || canDelete} />
          <Table.Tbody>
            {rows.length === 0 && !gateways.isLoading && <TableEmptyRow colSpan={columns.span()} py="lg" />}
            {rows.map((g) => (
              <Table.Tr key={g.id} data-testid={`gateway-row-${g.gatewayId}`}>
                <ColumnCells columns={columns} row={g} />
                <EditDeleteCell
                  canEdit={canEdit}
                  canDelete={canDelete}
                  onEdit={() => form.open(g)}
                  onDelete={() => void deleteAfterConfirm(g.name, () => remove.mutateAsync(g.id), t('common:feedback.deleted'))}
                >
                  <RenewMqttAction family={DeviceFamily.LampGateway} id={g.id} name={g.name} testId="gateway-renew-mqtt" />
                </EditDeleteCell>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableBox>
      <TableFooter {...footer(gateways.data?.total ?? 0)} />
      <GatewayFormModal opened={form.opened} gateway={form.row} onClose={form.close} />
    </>
  );
}
