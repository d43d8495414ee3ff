import { Suspense, lazy, useState } from 'react';
import { ActionIcon, Badge, Button, Grid, Group, Paper, Stack, Table, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { Select } from '@/components/select';
import { IconCalendarTime, IconEdit, IconPlus, IconSend, IconTrash } from '@tabler/icons-react';
import { useDebouncedValue } from '@mantine/hooks';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, StrategyMode, type ScheduleMismatches, type StrategyRow } from '@sc/contracts';
import { confirmDelete } from '@/components/confirm';
import { notifySuccess } from '@/components/notify';
import { FilterBar, PagePanel } from '@/components/page-panel';
import { TableFooter } from '@/components/table-footer';
import { useButton } from '@/auth/session-store';
import { paging } from '@/navigation/search-params';
import { parseTime } from '@/utils/format';
import { useLampPage, useLiveLighting } from '@/features/lighting/api';
import { DispatchPanel } from '@/features/lighting/dispatch-panel';
import { useDeleteStrategy, useLiveSchedules, useMismatches, useStrategyPage } from './api';
import { settingsOf } from './strategy-summary';

// The dialogs (form inputs, lamp picker, schedule drawer) load when first opened, keeping the page's first load small.
const StrategyFormModal = lazy(() => import('./strategy-form-modal').then((m) => ({ default: m.StrategyFormModal })));
const DistributeModal = lazy(() => import('./distribute-modal').then((m) => ({ default: m.DistributeModal })));
const LampScheduleDrawer = lazy(() => import('./lamp-schedule-drawer').then((m) => ({ default: m.LampScheduleDrawer })));

const route = getRouteApi('/_auth/_shell/smartLamp/lampStrategy');

/** Find any lamp by name and open its effective schedule. */
function ScheduleLookup({ onOpen }: { onOpen: (lampId: number) => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [lampName] = useDebouncedValue(name.trim(), 300);
  const lamps = useLampPage({ pageNum: 1, pageSize: 5, lampName: lampName || undefined });
  return (
    <Paper withBorder p="md" radius="md" data-testid="schedule-lookup">
      <Stack gap="xs">
        <Title order={5}>{t('strategy:schedule.title')}</Title>
        <TextInput
          placeholder={t('strategy:distribute.search')}
          leftSection={<IconCalendarTime size={16} />}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          data-testid="schedule-lookup-name"
        />
        {lampName &&
          (lamps.data?.list ?? []).map((lamp) => (
            <Button
              key={lamp.id}
              variant="subtle"
              size="compact-sm"
              justify="flex-start"
              onClick={() => onOpen(lamp.id)}
              data-testid={`schedule-open-${lamp.clientId}`}
            >
              {lamp.lampName} · {lamp.clientId}
            </Button>
          ))}
      </Stack>
    </Paper>
  );
}

function MismatchCard({ data, onOpen }: { data: ScheduleMismatches | undefined; onOpen: (lampId: number) => void }) {
  const { t } = useTranslation();
  if (!data) return null;
  const level = (l: number) => (l === 0 ? t('strategy:schedule.off') : `${l} %`);
  return (
    <Paper withBorder p="md" radius="md" data-testid="schedule-mismatches" data-total={data.total}>
      <Stack gap="xs">
        <Group gap="xs">
          <Title order={5}>{t('strategy:mismatch.title')}</Title>
          <Badge color={data.total > 0 ? 'red' : 'teal'}>{data.total}</Badge>
        </Group>
        {data.total === 0 ? (
          <Text size="sm" c="dimmed">
            {t('strategy:mismatch.none')}
          </Text>
        ) : (
          <Table fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('lighting:fields.lampName')}</Table.Th>
                <Table.Th>{t('strategy:mismatch.expected')}</Table.Th>
                <Table.Th>{t('strategy:mismatch.reported')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.lamps.slice(0, 20).map((lamp) => (
                <Table.Tr key={lamp.id} onClick={() => onOpen(lamp.id)} style={{ cursor: 'pointer' }} data-testid={`mismatch-${lamp.clientId}`}>
                  <Table.Td>
                    <Text size="sm">{lamp.lampName}</Text>
                    <Text size="xs" c="dimmed" ff="monospace">
                      {lamp.clientId}
                    </Text>
                  </Table.Td>
                  <Table.Td>{level(lamp.expected)}</Table.Td>
                  <Table.Td>{level(lamp.reported)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {data.total > 20 && (
          <Text size="xs" c="dimmed">
            {t('strategy:mismatch.more', { count: data.total - 20 })}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * /smartLamp/lampStrategy: lamp strategies (add, edit, delete), distribution to lamps or a region followed live, the
 * lamps that disagree with their schedule now, and any lamp's effective schedule.
 */
export function StrategyPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { pageNum, pageSize } = paging(search);
  const strategies = useStrategyPage({ pageNum, pageSize, name: search.name, mode: search.mode });
  const mismatches = useMismatches();
  const remove = useDeleteStrategy();
  const canAdd = useButton(ButtonPermission.Add);
  const canEdit = useButton(ButtonPermission.Edit);
  const canDelete = useButton(ButtonPermission.Delete);
  const canDistribute = useButton(ButtonPermission.OpenAndClose);
  useLiveLighting();
  useLiveSchedules();

  const [editing, setEditing] = useState<{ row: StrategyRow | null } | null>(null);
  const [distributing, setDistributing] = useState<StrategyRow | null>(null);
  const [filters, setFilters] = useState({ name: search.name ?? '', mode: search.mode === undefined ? null : String(search.mode) });
  const rows = strategies.data?.list ?? [];
  const openLamp = (lamp: number | undefined) => void navigate({ search: { ...search, lamp }, replace: true });

  const onDelete = async (row: StrategyRow) => {
    if (!(await confirmDelete(t('strategy:list.deleteDetail', { name: row.name })))) return;
    remove.mutate(row.id, { onSuccess: () => notifySuccess(t('common:feedback.deleted')) });
  };

  return (
    <PagePanel
      title={t('common:route.lampStrategy')}
      actions={
        canAdd && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ row: null })} data-testid="strategy-add">
            {t('strategy:list.add')}
          </Button>
        )
      }
    >
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Stack gap="sm">
            <FilterBar
              testId="strategy"
              onSubmit={() =>
                void navigate({
                  search: {
                    name: filters.name.trim() || undefined,
                    mode: filters.mode === null ? undefined : (Number(filters.mode) as StrategyMode),
                  },
                })
              }
              onReset={() => {
                setFilters({ name: '', mode: null });
                void navigate({ search: {} });
              }}
            >
              <TextInput
                placeholder={t('strategy:fields.name')}
                value={filters.name}
                onChange={(e) => setFilters({ ...filters, name: e.currentTarget.value })}
              />
              <Select
                placeholder={t('strategy:fields.mode')}
                clearable
                data={[0, 1, 2, 3].map((m) => ({ value: String(m), label: t(`strategy:mode.${m}`) }))}
                value={filters.mode}
                onChange={(mode) => setFilters({ ...filters, mode })}
              />
            </FilterBar>
            <Table.ScrollContainer minWidth={820} type="native">
              <Table striped highlightOnHover data-testid="strategy-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('strategy:fields.name')}</Table.Th>
                    <Table.Th>{t('strategy:fields.mode')}</Table.Th>
                    <Table.Th>{t('strategy:fields.settings')}</Table.Th>
                    <Table.Th>{t('strategy:fields.periods')}</Table.Th>
                    <Table.Th>{t('strategy:fields.devices')}</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.length === 0 && (
                    <Table.Tr>
                      <Table.Td colSpan={6}>
                        <Text size="sm" c="dimmed" ta="center">
                          {t('strategy:list.empty')}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  )}
                  {rows.map((row) => {
                    const disagree = mismatches.data?.byStrategy[row.id] ?? 0;
                    return (
                      <Table.Tr key={row.id} data-testid={`strategy-row-${row.name}`}>
                        <Table.Td>
                          <Text size="sm" fw={500}>
                            {row.name}
                          </Text>
                          <Text size="xs" c="dimmed">
                            {parseTime(row.updatedAt)}
                          </Text>
                        </Table.Td>
                        <Table.Td>
                          <Badge variant="light">{t(`strategy:mode.${row.mode}`)}</Badge>
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm">{settingsOf(t, row)}</Text>
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm">
                            {row.periods.length === 0
                              ? t('strategy:summary.noPeriods')
                              : row.periods.map((p) => t('strategy:summary.period', { start: p.start, end: p.end, level: p.level })).join(', ')}
                          </Text>
                        </Table.Td>
                        <Table.Td>
                          <Stack gap={2}>
                            <Text size="sm">{t('strategy:list.lamps', { count: row.deviceCount })}</Text>
                            {disagree > 0 && (
                              <Badge color="red" variant="light" size="sm" data-testid={`strategy-disagree-${row.name}`}>
                                {t('strategy:list.disagree', { count: disagree })}
                              </Badge>
                            )}
                          </Stack>
                        </Table.Td>
                        <Table.Td>
                          <Group gap={4} wrap="nowrap" justify="flex-end">
                            {canDistribute && (
                              <Tooltip label={t('strategy:list.distribute')}>
                                <ActionIcon variant="subtle" onClick={() => setDistributing(row)} data-testid={`strategy-distribute-${row.name}`}>
                                  <IconSend size={16} />
                                </ActionIcon>
                              </Tooltip>
                            )}
                            {canEdit && (
                              <Tooltip label={t('strategy:list.edit')}>
                                <ActionIcon variant="subtle" onClick={() => setEditing({ row })} data-testid={`strategy-edit-${row.name}`}>
                                  <IconEdit size={16} />
                                </ActionIcon>
                              </Tooltip>
                            )}
                            {canDelete && (
                              <Tooltip label={t('common:actions.delete')}>
                                <ActionIcon
                                  variant="subtle"
                                  color="red"
                                  onClick={() => void onDelete(row)}
                                  data-testid={`strategy-delete-${row.name}`}
                                >
                                  <IconTrash size={16} />
                                </ActionIcon>
                              </Tooltip>
                            )}
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <TableFooter
              total={strategies.data?.total ?? 0}
              pageNum={pageNum}
              pageSize={pageSize}
              onChange={(page) => void navigate({ search: { ...search, ...page } })}
            />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Stack gap="md">
            <DispatchPanel dispatchId={search.dispatch ?? null} />
            <MismatchCard data={mismatches.data} onOpen={openLamp} />
            <ScheduleLookup onOpen={openLamp} />
          </Stack>
        </Grid.Col>
      </Grid>
      <Suspense fallback={null}>
        {editing !== null && <StrategyFormModal opened strategy={editing.row} onClose={() => setEditing(null)} />}
        {distributing !== null && (
          <DistributeModal
            strategy={distributing}
            onClose={() => setDistributing(null)}
            onDistributed={(dispatchId) => {
              setDistributing(null);
              void navigate({ search: { ...search, dispatch: dispatchId }, replace: true });
            }}
          />
        )}
        {search.lamp !== undefined && <LampScheduleDrawer lampId={search.lamp} onClose={() => openLamp(undefined)} />}
      </Suspense>
    </PagePanel>
  );
}
