import '@mantine/charts/styles.css';
import { AreaChart, LineChart } from '@mantine/charts';
import { Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { WifiClientSeriesRequest } from '@sc/contracts';
import { parseTime } from '@/utils/format';
import { useClientSeries, useLoadSeries, useRegionClientSeries, type WifiKind } from './api';

/** Axis text at Mantine's xs, as the energy charts. */
const TICK = { fill: 'currentColor', style: { fontSize: 'var(--mantine-font-size-xs)' } };
const AXES = { h: '12rem', xAxisProps: { tick: TICK }, yAxisProps: { tick: TICK, width: 'auto' as const } };
const clock = (at: string) => parseTime(at, '{h}:{i}');

/** A chart's card: its title, then the chart once there are points (until then, loading or "no data"). */
function ChartCard({
  testId,
  title,
  points,
  loading,
  children,
}: {
  testId: string;
  title: string;
  points: number;
  loading: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius="md" data-testid={testId}>
      <Text size="sm" fw={500} mb="sm">
        {title}
      </Text>
      {points === 0 ? (
        <Text size="sm" c="dimmed">
          {loading ? t('common:feedback.loading') : t('wifi:charts.noData')}
        </Text>
      ) : (
        children
      )}
    </Paper>
  );
}

/**
 * One device's CPU, memory and disk ratios over the last day, in steps of 15 minutes (recharts through
 * @mantine/charts, loaded with import() beside the page so no route's first download carries it).
 */
export function LoadChart({ kind, id, name }: { kind: WifiKind; id: number; name: string }) {
  const { t } = useTranslation();
  const series = useLoadSeries(kind, id);
  const data = (series.data ?? []).map((p) => ({ at: clock(p.at), cpu: p.cpuRatio, memory: p.memoryRatio, disk: p.diskRatio }));
  return (
    <ChartCard testId="wifi-load-chart" title={t('wifi:charts.load', { name })} points={data.length} loading={series.isLoading}>
      <LineChart
        {...AXES}
        data={data}
        dataKey="at"
        yAxisProps={{ ...AXES.yAxisProps, domain: [0, 100] }}
        unit=" %"
        withLegend
        withDots={false}
        series={[
          { name: 'cpu', label: t('wifi:fields.cpuRatio'), color: 'red.6' },
          { name: 'memory', label: t('wifi:fields.memoryRatio'), color: 'blue.6' },
          { name: 'disk', label: t('wifi:fields.diskRatio'), color: 'teal.6' },
        ]}
      />
    </ChartCard>
  );
}

/** How many clients the selected access points (all, a region's, a controller's or one) had over the last day. */
export function ClientChart({ query }: { query: WifiClientSeriesRequest }) {
  const { t } = useTranslation();
  const series = useClientSeries(query);
  const data = (series.data ?? []).map((p) => ({ at: clock(p.at), clients: p.clients }));
  return (
    <ChartCard testId="wifi-client-chart" title={t('wifi:charts.clients')} points={data.length} loading={series.isLoading}>
      <AreaChart
        {...AXES}
        data={data}
        dataKey="at"
        curveType="monotone"
        series={[{ name: 'clients', label: t('wifi:fields.clientCount'), color: 'blue.6' }]}
      />
    </ChartCard>
  );
}

/** Colours of the regions compared, in turn (20 regions at most: some repeat in another shade). */
const REGION_COLORS = ['blue', 'teal', 'orange', 'grape', 'red', 'cyan', 'lime', 'pink', 'indigo', 'yellow'];

/** How many clients each region (with its sub-regions) had over the last day: a line per region, side by side. */
export function RegionClientChart({ regionIds }: { regionIds: number[] }) {
  const { t } = useTranslation();
  const series = useRegionClientSeries(regionIds);
  const regions = series.data?.regions ?? [];
  const data = (series.data?.points ?? []).map((p) => ({
    at: clock(p.at),
    ...Object.fromEntries(p.clients.map((clients, i) => [`r${i}`, clients])),
  }));
  return (
    <ChartCard testId="wifi-region-chart" title={t('wifi:charts.regionClients')} points={data.length} loading={series.isLoading}>
      <LineChart
        {...AXES}
        h="18rem"
        data={data}
        dataKey="at"
        curveType="monotone"
        withLegend
        withDots={false}
        series={regions.map((region, i) => ({
          name: `r${i}`,
          label: region.regionName,
          color: `${REGION_COLORS[i % REGION_COLORS.length]}.${i < REGION_COLORS.length ? 6 : 8}`,
        }))}
      />
    </ChartCard>
  );
}
