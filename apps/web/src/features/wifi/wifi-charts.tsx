import '@mantine/charts/styles.css';
import { AreaChart, LineChart } from '@mantine/charts';
import { Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { WifiClientSeriesRequest } from '@sc/contracts';
import { parseTime } from '@/utils/format';
import { useClientSeries, useLoadSeries, type WifiKind } from './api';

/** Axis text at Mantine's xs, as the energy charts. */
const TICK = { fill: 'currentColor', style: { fontSize: 'var(--mantine-font-size-xs)' } };
const AXES = { h: '12rem', xAxisProps: { tick: TICK }, yAxisProps: { tick: TICK, width: 'auto' as const } };
const clock = (at: string) => parseTime(at, '{h}:{i}');

/**
 * One device's CPU, memory and disk ratios over the last day, in steps of 15 minutes (recharts through
 * @mantine/charts, loaded with import() beside the page so no route's first download carries it).
 */
export function LoadChart({ kind, id, name }: { kind: WifiKind; id: number; name: string }) {
  const { t } = useTranslation();
  const series = useLoadSeries(kind, id);
  const data = (series.data ?? []).map((p) => ({ at: clock(p.at), cpu: p.cpuRatio, memory: p.memoryRatio, disk: p.diskRatio }));
  return (
    <Paper withBorder p="md" radius="md" data-testid="wifi-load-chart">
      <Text size="sm" fw={500} mb="sm">
        {t('wifi:charts.load', { name })}
      </Text>
      {data.length === 0 ? (
        <Text size="sm" c="dimmed">
          {series.isLoading ? t('common:feedback.loading') : t('wifi:charts.noData')}
        </Text>
      ) : (
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
      )}
    </Paper>
  );
}

/** How many clients the selected access points (all, a region's, a controller's or one) had over the last day. */
export function ClientChart({ query }: { query: WifiClientSeriesRequest }) {
  const { t } = useTranslation();
  const series = useClientSeries(query);
  const data = (series.data ?? []).map((p) => ({ at: clock(p.at), clients: p.clients }));
  return (
    <Paper withBorder p="md" radius="md" data-testid="wifi-client-chart">
      <Text size="sm" fw={500} mb="sm">
        {t('wifi:charts.clients')}
      </Text>
      {data.length === 0 ? (
        <Text size="sm" c="dimmed">
          {series.isLoading ? t('common:feedback.loading') : t('wifi:charts.noData')}
        </Text>
      ) : (
        <AreaChart
          {...AXES}
          data={data}
          dataKey="at"
          curveType="monotone"
          series={[{ name: 'clients', label: t('wifi:fields.clientCount'), color: 'blue.6' }]}
        />
      )}
    </Paper>
  );
}
