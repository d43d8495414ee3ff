import { useEffect, useState } from 'react';
import { ActionIcon, Button, Group, Modal, NumberInput, SimpleGrid, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { Select } from '@/components/select';
import { IconEdit, IconPlus, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, DEVICE_CODE_PATTERN, GATEWAY_NAME_MAX, OnlineState, type GatewayRow } from '@sc/contracts';
import { AreaCascader } from '@/components/area-cascader';
import { FilterBar } from '@/components/page-panel';
import { TableFooter } from '@/components/table-footer';
import { confirmDelete } from '@/components/confirm';
import { notifySuccess } from '@/components/notify';
import { fieldErrors } from '@/api/field-errors';
import { useButton } from '@/auth/session-store';
import { formatTime } from '@/utils/format';
import { useDeleteGateway, useGatewayPage, useSaveGateway } from './equipment-api';
import { ImportSlot } from './import-slot';
import { NetworkBadge } from './lamp-badges';

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
      gatewayId: !values.gatewayId.trim()
        ? t('messages:pleaseEnter')
        : DEVICE_CODE_PATTERN.test(values.gatewayId.trim())
          ? undefined
          : t('messages:clientIdInvalid'),
      name: values.name.trim() ? undefined : t('messages:nameEmpty'),
      latitude: (values.latitude === '') !== (values.longitude === '') ? t('messages:positionIncomplete') : undefined,
    };
    if (Object.values(problems).some(Boolean)) return setErrors(problems);
    try {
      await save.mutateAsync({
        ...(gateway ? { id: gateway.id } : {}),
        gatewayId: values.gatewayId.trim(),
        name: values.name.trim(),
        regionId: values.regionId,
        addr: values.addr,
        latitude: coordinate(values.latitude),
        longitude: coordinate(values.longitude),
      });
      notifySuccess(t(gateway ? 'common:feedback.updated' : 'common:feedback.created'));
      onClose();
    } catch (error) {
      setErrors(fieldErrors(error));
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t(gateway ? 'lighting:equipment.editGateway' : 'lighting:equipment.addGateway')} size="lg">
      <form
        noValidate
        data-testid="gateway-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack>
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
            <NumberInput
              label={t('lighting:fields.latitude')}
              min={-90}
              max={90}
              decimalScale={6}
              value={values.latitude}
              onChange={(v) => set('latitude', v)}
              error={errors.latitude}
            />
            <NumberInput
              label={t('lighting:fields.longitude')}
              min={-180}
              max={180}
              decimalScale={6}
              value={values.longitude}
              onChange={(v) => set('longitude', v)}
            />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common:actions.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} data-testid="gateway-save">
              {t('common:actions.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The gateways (concentrators): their own record, region, position, and online state from their MQTT state. */
export function GatewaysTab({ onOpenLamps }: { onOpenLamps: (gatewayId: string) => void }) {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<Filters>({});
  const [draft, setDraft] = useState<Filters>({});
  const [page, setPage] = useState({ pageNum: 1, pageSize: 20 });
  const gateways = useGatewayPage({ ...filters, ...page });
  const remove = useDeleteGateway();
  const canAdd = useButton(ButtonPermission.Add);
  const canEdit = useButton(ButtonPermission.Edit);
  const canDelete = useButton(ButtonPermission.Delete);
  const canRefresh = useButton(ButtonPermission.Refresh);
  const [form, setForm] = useState<{ opened: boolean; gateway: GatewayRow | null }>({ opened: false, gateway: null });
  const rows = gateways.data?.list ?? [];
  const del = async (g: GatewayRow) => {
    if (!(await confirmDelete(g.name))) return;
    try {
      await remove.mutateAsync(g.id);
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
        testId="gateway"
      >
        <TextInput
          label={t('lighting:fields.name')}
          placeholder={t('lighting:equipment.gatewaySearch')}
          value={draft.name ?? ''}
          onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })}
          w={{ base: '100%', sm: 200 }}
        />
        <AreaCascader
          label={t('lighting:fields.region')}
          value={draft.regionId ?? null}
          onChange={(id) => setDraft({ ...draft, regionId: id ?? undefined })}
        />
        <Select
          label={t('lighting:fields.networkStatus')}
          placeholder={t('lighting:list.all')}
          clearable
          data={[OnlineState.Online, OnlineState.Offline].map((s) => ({ value: String(s), label: t(`lighting:network.${s}`) }))}
          value={draft.networkStatus === undefined ? null : String(draft.networkStatus)}
          onChange={(v) => setDraft({ ...draft, networkStatus: v === null ? undefined : (Number(v) as OnlineState) })}
          w={{ base: '100%', sm: 140 }}
        />
      </FilterBar>
      <Group gap="xs" mb="sm">
        {canAdd && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setForm({ opened: true, gateway: null })} data-testid="gateway-add">
            {t('lighting:equipment.addGateway')}
          </Button>
        )}
        {canRefresh && (
          <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={() => void gateways.refetch()}>
            {t('lighting:equipment.refresh')}
          </Button>
        )}
        <ImportSlot kind="gateway" onImported={() => void gateways.refetch()} />
      </Group>
      <Table.ScrollContainer minWidth={1100} type="native">
        <Table striped data-testid="gateway-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('lighting:fields.gatewayId')}</Table.Th>
              <Table.Th>{t('lighting:fields.name')}</Table.Th>
              <Table.Th>{t('lighting:fields.region')}</Table.Th>
              <Table.Th>{t('lighting:fields.addr')}</Table.Th>
              <Table.Th>{t('lighting:fields.position')}</Table.Th>
              <Table.Th>{t('lighting:fields.networkStatus')}</Table.Th>
              <Table.Th>{t('lighting:equipment.loops')}</Table.Th>
              <Table.Th>{t('lighting:equipment.lampsOnline')}</Table.Th>
              <Table.Th>{t('lighting:fields.versions')}</Table.Th>
              <Table.Th>{t('lighting:fields.reportedAt')}</Table.Th>
              {(canEdit || canDelete) && <Table.Th ta="right">{t('common:actions.operations')}</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 && !gateways.isLoading && (
              <Table.Tr>
                <Table.Td colSpan={11}>
                  <Text c="dimmed" ta="center" py="lg">
                    {t('common:feedback.noData')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {rows.map((g) => (
              <Table.Tr key={g.id} data-testid={`gateway-row-${g.gatewayId}`}>
                <Table.Td ff="monospace">{g.gatewayId}</Table.Td>
                <Table.Td fw={500}>{g.name}</Table.Td>
                <Table.Td>{g.regionName ?? '—'}</Table.Td>
                <Table.Td>{g.addr || '—'}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {g.latitude === null || g.longitude === null ? '—' : `${g.latitude.toFixed(4)}, ${g.longitude.toFixed(4)}`}
                </Table.Td>
                <Table.Td>
                  <NetworkBadge networkStatus={g.networkStatus} />
                </Table.Td>
                <Table.Td>{g.loopCount}</Table.Td>
                <Table.Td>
                  <Button variant="subtle" size="compact-sm" onClick={() => onOpenLamps(g.gatewayId)} data-testid="gateway-lamps">
                    {`${g.onlineLampCount} / ${g.lampCount}`}
                  </Button>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {g.hardwareVersion || g.softwareVersion ? `${g.hardwareVersion} / ${g.softwareVersion}` : '—'}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{g.reportedAt ? formatTime(g.reportedAt) : t('lighting:list.never')}</Table.Td>
                {(canEdit || canDelete) && (
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      {canEdit && (
                        <Tooltip label={t('common:actions.edit')}>
                          <ActionIcon onClick={() => setForm({ opened: true, gateway: g })} aria-label={t('common:actions.edit')}>
                            <IconEdit size={18} />
                          </ActionIcon>
                        </Tooltip>
                      )}
                      {canDelete && (
                        <Tooltip label={t('common:actions.delete')}>
                          <ActionIcon color="red" onClick={() => void del(g)} aria-label={t('common:actions.delete')}>
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
      </Table.ScrollContainer>
      <TableFooter
        total={gateways.data?.total ?? 0}
        pageNum={page.pageNum}
        pageSize={page.pageSize}
        onChange={(p) => setPage((old) => ({ ...old, ...p }))}
      />
      <GatewayFormModal opened={form.opened} gateway={form.gateway} onClose={() => setForm((f) => ({ ...f, opened: false }))} />
    </>
  );
}
