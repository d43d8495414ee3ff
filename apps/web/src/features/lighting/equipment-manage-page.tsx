import { lazy, Suspense, useState } from 'react';
import { ActionIcon, Badge, Button, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, type LampRow } from '@sc/contracts';
import { PagePanel } from '@/components/page-panel';
import { TableFooter } from '@/components/table-footer';
import { confirmDelete } from '@/components/confirm';
import { notifySuccess } from '@/components/notify';
import { useButton } from '@/auth/session-store';
import { paging } from '@/navigation/search-params';
import { formatTime } from '@/utils/format';
import { useDeleteLamp, useLampPage, useLiveLighting } from './api';
import { FaultList, LampStatusBadge, NetworkBadge } from './lamp-badges';
import { LampFilters } from './lamp-filters';

const route = getRouteApi('/_auth/_shell/smartLamp/equipmentManage');

// The form (and its form library) loads when someone first adds or edits a lamp.
const LampFormModal = lazy(() => import('./lamp-form-modal').then((m) => ({ default: m.LampFormModal })));

/** Readings of the last telemetry, compact for a table cell. */
export function TelemetryCell({ lamp }: { lamp: LampRow }) {
  const { t } = useTranslation();
  const reading = lamp.telemetry;
  if (!reading) return <Text c="dimmed">—</Text>;
  return (
    <Tooltip
      label={
        <Stack gap={2}>
          <span>{`${t('lighting:fields.voltage')}: ${reading.voltage.toFixed(1)} V`}</span>
          <span>{`${t('lighting:fields.current')}: ${reading.current.toFixed(2)} A`}</span>
          <span>{`${t('lighting:fields.power')}: ${reading.power.toFixed(1)} W`}</span>
          <span>{`${t('lighting:fields.powerFactor')}: ${reading.powerFactor.toFixed(2)}`}</span>
          <span>{`${t('lighting:fields.signal')}: ${reading.signal} dBm`}</span>
        </Stack>
      }
    >
      <Text size="sm" style={{ whiteSpace: 'nowrap' }} data-testid="lamp-telemetry">
        {`${reading.voltage.toFixed(0)} V · ${reading.power.toFixed(0)} W · ${reading.signal} dBm`}
      </Text>
    </Tooltip>
  );
}

/** /smartLamp/equipmentManage: the lamp list, live. */
export function EquipmentManagePage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { pageNum, pageSize } = paging(search);
  const lamps = useLampPage({ ...search, pageNum, pageSize });
  const remove = useDeleteLamp();
  const canAdd = useButton(ButtonPermission.Add);
  const canEdit = useButton(ButtonPermission.Edit);
  const canDelete = useButton(ButtonPermission.Delete);
  const [form, setFormState] = useState<{ opened: boolean; lamp: LampRow | null }>({ opened: false, lamp: null });
  const [formUsed, setFormUsed] = useState(false);
  const setForm: typeof setFormState = (next) => {
    setFormUsed(true);
    setFormState(next);
  };
  useLiveLighting();

  const rows = lamps.data?.list ?? [];
  const del = async (lamp: LampRow) => {
    if (!(await confirmDelete(lamp.lampName))) return;
    try {
      await remove.mutateAsync(lamp.id);
      notifySuccess(t('lighting:list.deleted', { name: lamp.lampName }));
    } catch {
      // The refusal is already on screen.
    }
  };

  return (
    <PagePanel
      title={
        <Group gap="sm">
          {t('common:route.equipmentManage')}
          <Tooltip label={t('lighting:list.liveHint')}>
            <Badge variant="dot" color="teal">
              {t('lighting:list.live')}
            </Badge>
          </Tooltip>
        </Group>
      }
      actions={
        canAdd && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setForm({ opened: true, lamp: null })} data-testid="lamp-add">
            {t('lighting:list.add')}
          </Button>
        )
      }
    >
      <LampFilters search={search} onApply={(next) => void navigate({ search: next })} />
      <Table.ScrollContainer minWidth={1100} type="native">
        <Table striped data-testid="lamp-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('lighting:fields.lampName')}</Table.Th>
              <Table.Th>{t('lighting:fields.clientId')}</Table.Th>
              <Table.Th>{t('lighting:fields.region')}</Table.Th>
              <Table.Th>{t('lighting:fields.status')}</Table.Th>
              <Table.Th>{t('lighting:fields.networkStatus')}</Table.Th>
              <Table.Th>{t('lighting:fields.switchState')}</Table.Th>
              <Table.Th>{t('lighting:fields.bri')}</Table.Th>
              <Table.Th>{t('lighting:fields.power')}</Table.Th>
              <Table.Th>{t('lighting:fields.faults')}</Table.Th>
              <Table.Th>{t('lighting:fields.reportedAt')}</Table.Th>
              {(canEdit || canDelete) && <Table.Th ta="right">{t('common:actions.operations')}</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 && !lamps.isLoading && (
              <Table.Tr>
                <Table.Td colSpan={11}>
                  <Text c="dimmed" ta="center" py="lg">
                    {t('lighting:list.noLamps')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {rows.map((lamp) => (
              <Table.Tr key={lamp.id} data-testid={`lamp-row-${lamp.clientId}`}>
                <Table.Td fw={500}>{lamp.lampName}</Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {lamp.clientId}
                  </Text>
                </Table.Td>
                <Table.Td>{lamp.regionName ?? '—'}</Table.Td>
                <Table.Td>
                  <LampStatusBadge status={lamp.status} />
                </Table.Td>
                <Table.Td>
                  <NetworkBadge networkStatus={lamp.networkStatus} />
                </Table.Td>
                <Table.Td>{t(lamp.switchState === 1 ? 'lighting:switch.on' : 'lighting:switch.off')}</Table.Td>
                <Table.Td>{`${lamp.bri} %`}</Table.Td>
                <Table.Td>
                  <TelemetryCell lamp={lamp} />
                </Table.Td>
                <Table.Td>
                  <FaultList faults={lamp.faults} />
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{lamp.reportedAt ? formatTime(lamp.reportedAt) : t('lighting:list.never')}</Table.Td>
                {(canEdit || canDelete) && (
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      {canEdit && (
                        <Tooltip label={t('common:actions.edit')}>
                          <ActionIcon onClick={() => setForm({ opened: true, lamp })} aria-label={t('common:actions.edit')} data-testid="lamp-edit">
                            <IconEdit size={18} />
                          </ActionIcon>
                        </Tooltip>
                      )}
                      {canDelete && (
                        <Tooltip label={t('common:actions.delete')}>
                          <ActionIcon color="red" onClick={() => void del(lamp)} aria-label={t('common:actions.delete')} data-testid="lamp-delete">
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
        total={lamps.data?.total ?? 0}
        pageNum={pageNum}
        pageSize={pageSize}
        onChange={(page) => void navigate({ search: { ...search, ...page } })}
      />
      {formUsed && (
        <Suspense fallback={null}>
          <LampFormModal opened={form.opened} lamp={form.lamp} onClose={() => setForm((f) => ({ ...f, opened: false }))} />
        </Suspense>
      )}
    </PagePanel>
  );
}
