import { Suspense, lazy, useState } from 'react';
import { Badge, Button, Grid, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { Select } from '@/components/select';
import { IconCalendarTime } from '@tabler/icons-react';
import { useDebouncedValue } from '@mantine/hooks';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { DeviceFamily, StrategyMode, type ScheduleMismatches } from '@sc/contracts';
import { FilterBar, PagePanel } from '@/components/page-panel';
import { paging } from '@/navigation/search-params';
import { parseTime } from '@/utils/format';
import { describeLampDispatch, useLampPage, useLiveLamps } from '@/features/lighting/api';
import { DispatchPanel } from '@/features/dispatch/dispatch-panel';
import { useDeleteStrategy, useLiveSchedules, useMismatches, useStrategyPage } from './api';
import { StrategyAddButton, StrategyTable, useStrategyDialogs } from './strategy-table';

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
  useLiveLamps();
  useLiveSchedules();

  const dialogs = useStrategyDialogs(
    remove,
    (dispatchId) => void navigate({ search: { ...search, dispatch: dispatchId }, replace: true, resetScroll: false }),
  );
  const { editing, setEditing, distributing, setDistributing } = dialogs;
  const [filters, setFilters] = useState({ name: search.name ?? '', mode: search.mode === undefined ? null : String(search.mode) });
  const openLamp = (lamp: number | undefined) => void navigate({ search: { ...search, lamp }, replace: true });

  return (
    <PagePanel title={t('common:route.lampStrategy')} actions={<StrategyAddButton dialogs={dialogs} testId="strategy-add" />}>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
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
            <StrategyTable
              data={strategies.data}
              dialogs={dialogs}
              pageNum={pageNum}
              pageSize={pageSize}
              onPage={(page) => void navigate({ search: { ...search, ...page } })}
              testId="strategy"
              testEditDelete
              distributeLabel={t('strategy:list.distribute')}
              subtitle={(row) => (
                <Text size="xs" c="dimmed">
                  {parseTime(row.updatedAt)}
                </Text>
              )}
              devicesHeader={t('strategy:fields.devices')}
              devicesCell={(row) => {
                const disagree = mismatches.data?.byStrategy[row.id] ?? 0;
                return (
                  <Stack gap={2}>
                    <Text size="sm">{t('strategy:list.lamps', { count: row.deviceCount })}</Text>
                    {disagree > 0 && (
                      <Badge color="red" variant="light" size="sm" data-testid={`strategy-disagree-${row.name}`}>
                        {t('strategy:list.disagree', { count: disagree })}
                      </Badge>
                    )}
                  </Stack>
                );
              }}
            />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Stack gap="md">
            <DispatchPanel family={DeviceFamily.Lamp} dispatchId={search.dispatch ?? null} describe={describeLampDispatch} />
            <MismatchCard data={mismatches.data} onOpen={openLamp} />
            <ScheduleLookup onOpen={openLamp} />
          </Stack>
        </Grid.Col>
      </Grid>
      <Suspense fallback={null}>
        {editing !== null && <StrategyFormModal opened strategy={editing.row} onClose={() => setEditing(null)} />}
        {distributing !== null && (
          <DistributeModal strategy={distributing} onClose={() => setDistributing(null)} onDistributed={dialogs.distributed} />
        )}
        {search.lamp !== undefined && <LampScheduleDrawer lampId={search.lamp} onClose={() => openLamp(undefined)} />}
      </Suspense>
    </PagePanel>
  );
}
