import { lazy, Suspense, useMemo, useState } from 'react';
import { ActionIcon, Button, Center, Group, Loader, Modal, Paper, SegmentedControl, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconPencil } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import {
  Button as ButtonPermission,
  NUMBER_BOUNDS,
  type EnergyFigures,
  type EnergyLampRow,
  type EnergyPeriod,
  type EnergyRegionNode,
} from '@sc/contracts';
import { useButton } from '@/auth/session-store';
import { BoundedNumberInput, numberFieldError } from '@/components/bounded-number-input';
import { DayField, MonthField } from '@/components/date-inputs';
import { notifySuccess } from '@/components/notify';
import { PagePanel } from '@/components/page-panel';
import { TableFooter } from '@/components/table-footer';
import { areaLabel, useRegionLabel } from '@/features/region/area-tree';
import { today } from '@/features/system/shared/date-fields';
import { TABLE_STYLES, TableStatusRow } from '@/features/system/shared/table-states';
import { ColumnCells, ColumnHeads, OneLine, PinnedActionsCell, TableBox, useTableColumns } from '@/components/table-columns';
import { NameCode } from '@/components/table-parts';
import { currentLanguage } from '@/i18n';
import { compact, paging } from '@/navigation/search-params';
import { useEnergyLamps, useEnergySeries, useEnergyTree, useSetRatedPower } from './api';
import { formatEnergy, savingShare } from './format';

const route = getRouteApi('/_auth/_shell/smartLamp/energy');
/** The charts bring recharts: they load on their own, after the page. */
const EnergyCharts = lazy(() => import('./energy-charts'));

function findNode(nodes: readonly EnergyRegionNode[], id: number): EnergyRegionNode | undefined {
  for (const node of nodes) {
    if (node.id === id) return node;
    const below = findNode(node.childList, id);
    if (below) return below;
  }
  return undefined;
}

/** /smartLamp/energy: energy, full-power energy and saving of a day or a month, by region, over time and per lamp. */
export function EnergyPage() {
  const { t } = useTranslation();
  const regionLabel = useRegionLabel();
  const lang = currentLanguage();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const period: EnergyPeriod = search.period ?? 'day';
  const date = search.date ?? today();
  const { pageNum, pageSize } = paging(search);

  const tree = useEnergyTree({ period, date });
  const series = useEnergySeries(compact({ period, date, regionId: search.regionId }));
  const lamps = useEnergyLamps(compact({ period, date, regionId: search.regionId, pageNum, pageSize }));
  const selected = search.regionId && tree.data ? findNode(tree.data.tree, search.regionId) : undefined;
  const figures: EnergyFigures | undefined = selected ?? tree.data?.total;
  // The region chart compares the chosen region's sub-regions (the region itself when it has none), or the top regions.
  const chartRegions = useMemo(() => {
    if (!selected) return tree.data?.tree ?? [];
    return selected.childList.length > 0 ? selected.childList : [selected];
  }, [selected, tree.data]);

  const canEdit = useButton(ButtonPermission.Edit);
  const [rating, setRating] = useState<EnergyLampRow | null>(null);
  const columns = useTableColumns<EnergyLampRow>('energy-lamps', [
    { key: 'lamp', label: t('energy:fields.lamp'), always: true, cell: (lamp) => <NameCode name={lamp.lampName} code={lamp.clientId} fw={500} /> },
    { key: 'region', label: t('energy:fields.region'), cell: (lamp) => <OneLine maw="10rem">{regionLabel(lamp)}</OneLine> },
    {
      key: 'ratedPower',
      label: t('energy:fields.ratedPower'),
      align: 'right',
      cell: (lamp) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Text size="sm">{lamp.ratedPower} W</Text>
          {canEdit && (
            <ActionIcon
              size="sm"
              variant="subtle"
              onClick={() => setRating(lamp)}
              aria-label={t('energy:ratedPower.edit')}
              data-testid="energy-rated-power-edit"
            >
              <IconPencil size={14} />
            </ActionIcon>
          )}
        </Group>
      ),
    },
    { key: 'energy', label: t('energy:fields.energy'), align: 'right', cell: (lamp) => formatEnergy(lamp.energyWh) },
    { key: 'full', label: t('energy:fields.full'), align: 'right', cell: (lamp) => formatEnergy(lamp.fullWh) },
    {
      key: 'saving',
      label: t('energy:fields.saving'),
      align: 'right',
      cell: (lamp) => (
        <>
          {formatEnergy(lamp.savingWh)}{' '}
          <Text span size="xs" c="dimmed">
            {savingShare(lamp.savingWh, lamp.fullWh)}
          </Text>
        </>
      ),
    },
    { key: 'litHours', label: t('energy:fields.litHours'), align: 'right', cell: (lamp) => lamp.litHours.toFixed(1) },
  ]);

  const go = (next: Partial<typeof search>) => void navigate({ search: compact({ ...search, pageNum: undefined, ...next }) });

  return (
    <PagePanel title={t('common:route.energy')}>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <SegmentedControl
          value={period}
          onChange={(v) => go({ period: v === 'day' ? undefined : (v as EnergyPeriod) })}
          data={[
            { value: 'day', label: t('energy:period.day') },
            { value: 'month', label: t('energy:period.month') },
          ]}
          aria-label={t('energy:period.label')}
          data-testid="energy-period"
        />
        {period === 'day' ? (
          <DayField
            label={t('energy:fields.day')}
            value={date}
            max={today()}
            onChange={(day) => day && go({ date: day })}
            w={170}
            data-testid="energy-date"
          />
        ) : (
          <MonthField
            label={t('energy:fields.month')}
            value={date.slice(0, 7)}
            max={today().slice(0, 7)}
            onChange={(month) => go({ date: `${month}-01` })}
            w={170}
            data-testid="energy-month"
          />
        )}
        {selected && (
          <Text size="sm" c="dimmed" data-testid="energy-selected">
            {t('energy:selectedRegion', { region: areaLabel(selected, lang) })}{' '}
            <Text span c="blue" style={{ cursor: 'pointer' }} onClick={() => go({ regionId: undefined })}>
              {t('energy:allRegions')}
            </Text>
          </Text>
        )}
      </Group>

      <SimpleGrid cols={{ base: 2, md: 5 }} spacing="sm" data-testid="energy-figures">
        <Figure label={t('energy:fields.energy')} value={formatEnergy(figures?.energyWh ?? 0)} testId="energy-total" />
        <Figure label={t('energy:fields.full')} value={formatEnergy(figures?.fullWh ?? 0)} />
        <Figure
          label={t('energy:fields.saving')}
          value={formatEnergy(figures?.savingWh ?? 0)}
          hint={savingShare(figures?.savingWh ?? 0, figures?.fullWh ?? 0)}
          testId="energy-saving"
        />
        <Figure label={t('energy:fields.litHours')} value={(figures?.litHours ?? 0).toFixed(1)} />
        <Figure label={t('energy:fields.lamps')} value={String(figures?.lampCount ?? 0)} />
      </SimpleGrid>

      <Suspense
        fallback={
          <Center h={300}>
            <Loader size="sm" />
          </Center>
        }
      >
        <EnergyCharts period={period} timeline={series.data} regions={chartRegions} />
      </Suspense>

      <RegionTable
        nodes={tree.data?.tree ?? []}
        unassigned={tree.data?.unassigned}
        selectedId={search.regionId}
        loading={tree.isPending}
        failed={tree.isError}
        onRetry={() => void tree.refetch()}
        onSelect={(id) => go({ regionId: id === search.regionId ? undefined : id })}
      />

      <Stack gap="xs">
        <Text fw={500}>{t('energy:lamps.title')}</Text>
        <TableBox>
          <Table striped highlightOnHover styles={TABLE_STYLES} data-testid="energy-lamps">
            <ColumnHeads columns={columns} actions={false} />
            <Table.Tbody>
              <TableStatusRow
                colSpan={columns.span()}
                loading={lamps.isPending}
                failed={lamps.isError && !lamps.data}
                empty={lamps.isSuccess && lamps.data.list.length === 0}
                onRetry={() => void lamps.refetch()}
              />
              {(lamps.data?.list ?? []).map((lamp) => (
                <Table.Tr key={lamp.id} data-testid={`energy-lamp-${lamp.clientId}`}>
                  <ColumnCells columns={columns} row={lamp} />
                  <PinnedActionsCell />
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableBox>
        <TableFooter
          total={lamps.data?.total ?? 0}
          pageNum={pageNum}
          pageSize={pageSize}
          onChange={(page) => void navigate({ search: { ...search, ...page } })}
        />
      </Stack>
      <RatedPowerModal key={rating?.id ?? 'none'} lamp={rating} onClose={() => setRating(null)} />
    </PagePanel>
  );
}

/** Edits one lamp's rated power: what its full-power energy and saving are measured against. */
function RatedPowerModal({ lamp, onClose }: { lamp: EnergyLampRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSetRatedPower();
  const [value, setValue] = useState<number | string>(lamp?.ratedPower ?? '');
  const [error, setError] = useState<string | null>(null);
  return (
    <Modal opened={lamp !== null} onClose={onClose} title={t('energy:ratedPower.title', { name: lamp?.lampName ?? '' })}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!lamp) return;
          const problem = numberFieldError(t, value, NUMBER_BOUNDS.ratedPower, true);
          setError(problem);
          if (problem) return;
          save.mutate(
            { ids: [lamp.id], ratedPower: Number(value) },
            {
              onSuccess: () => {
                notifySuccess(t('common:feedback.saved'));
                onClose();
              },
            },
          );
        }}
      >
        <Stack>
          <BoundedNumberInput
            label={t('energy:fields.ratedPower')}
            description={t('energy:ratedPower.hint')}
            suffix=" W"
            bounds={NUMBER_BOUNDS.ratedPower}
            value={value}
            onChange={(v) => {
              setValue(v);
              setError(null);
            }}
            error={error}
            data-autofocus
            data-testid="energy-rated-power-input"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common:actions.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} data-testid="energy-rated-power-save">
              {t('common:actions.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function Figure({ label, value, hint, testId }: { label: string; value: string; hint?: string; testId?: string }) {
  return (
    <Paper withBorder radius="md" p="sm" data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} size="lg">
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="teal">
          {hint}
        </Text>
      )}
    </Paper>
  );
}

/** The region tree with each region's sums (its own lamps and everything below); a click picks the region. */
function RegionTable({
  nodes,
  unassigned,
  selectedId,
  loading,
  failed,
  onRetry,
  onSelect,
}: {
  nodes: readonly EnergyRegionNode[];
  unassigned?: EnergyFigures;
  selectedId?: number;
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
  onSelect: (id: number) => void;
}) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const [collapsed, setCollapsed] = useState<Set<number>>(new Set());
  const rows: { node: EnergyRegionNode; depth: number }[] = [];
  const walk = (list: readonly EnergyRegionNode[], depth: number) => {
    for (const node of list) {
      rows.push({ node, depth });
      if (!collapsed.has(node.id)) walk(node.childList, depth + 1);
    }
  };
  walk(nodes, 0);
  const toggle = (id: number) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  /** One row: a region (with its depth in the tree), or the lamps of no region (`node` absent). */
  type Row = { figures: EnergyFigures; node?: EnergyRegionNode; depth: number };
  const columns = useTableColumns<Row>('energy-regions', [
    {
      key: 'region',
      label: t('energy:fields.region'),
      always: true,
      cell: ({ node, depth }) =>
        node ? (
          <Group gap={4} wrap="nowrap" pl={depth * 20}>
            {node.childList.length > 0 ? (
              <ActionIcon
                size="sm"
                variant="subtle"
                color="gray"
                onClick={(e) => {
                  e.stopPropagation();
                  toggle(node.id);
                }}
                aria-label={t('energy:toggleRegion')}
              >
                {collapsed.has(node.id) ? <IconChevronRight size={14} /> : <IconChevronDown size={14} />}
              </ActionIcon>
            ) : (
              <span style={{ width: 22 }} />
            )}
            <Text size="sm">{areaLabel(node, lang)}</Text>
          </Group>
        ) : (
          <Text size="sm" c="dimmed" pl={26}>
            {t('energy:unassigned')}
          </Text>
        ),
    },
    { key: 'energy', label: t('energy:fields.energy'), align: 'right', cell: ({ figures }) => formatEnergy(figures.energyWh) },
    { key: 'full', label: t('energy:fields.full'), align: 'right', cell: ({ figures }) => formatEnergy(figures.fullWh) },
    { key: 'saving', label: t('energy:fields.saving'), align: 'right', cell: ({ figures }) => formatEnergy(figures.savingWh) },
    { key: 'share', label: t('energy:fields.savingShare'), align: 'right', cell: ({ figures }) => savingShare(figures.savingWh, figures.fullWh) },
    { key: 'lamps', label: t('energy:fields.lamps'), align: 'right', cell: ({ figures }) => figures.lampCount },
  ]);
  return (
    <TableBox>
      <Table highlightOnHover styles={TABLE_STYLES} data-testid="energy-regions">
        <ColumnHeads columns={columns} actions={false} />
        <Table.Tbody>
          <TableStatusRow
            colSpan={columns.span()}
            loading={loading}
            failed={failed}
            empty={!loading && !failed && nodes.length === 0}
            onRetry={onRetry}
          />
          {rows.map(({ node, depth }) => (
            <Table.Tr
              key={node.id}
              bg={node.id === selectedId ? 'var(--mantine-primary-color-light)' : undefined}
              style={{ cursor: 'pointer' }}
              onClick={() => onSelect(node.id)}
              data-testid={`energy-region-${node.id}`}
            >
              <ColumnCells columns={columns} row={{ figures: node, node, depth }} />
              <PinnedActionsCell />
            </Table.Tr>
          ))}
          {unassigned && unassigned.lampCount > 0 && (
            <Table.Tr data-testid="energy-region-none">
              <ColumnCells columns={columns} row={{ figures: unassigned, depth: 0 }} />
              <PinnedActionsCell />
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
    </TableBox>
  );
}
