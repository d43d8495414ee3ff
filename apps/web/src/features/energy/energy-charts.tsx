import '@mantine/charts/styles.css';
import { AreaChart, BarChart } from '@mantine/charts';
import { Group, Paper, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { EnergyPeriod, EnergyRegionNode, EnergySeries } from '@sc/contracts';
import { currentLanguage } from '@/i18n';
import { areaLabel } from '@/features/region/area-tree';
import { clockIn, dayOfMonthIn } from '@/utils/written-dates';

/** One unit for a whole chart, so its axis reads evenly: kWh once the largest value reaches one. */
function formatterFor(maxWh: number): (wh: number) => string {
  return maxWh >= 1000 ? (wh) => `${(wh / 1000).toFixed(maxWh >= 100_000 ? 0 : 1)} kWh` : (wh) => `${wh.toFixed(maxWh >= 100 ? 0 : 1)} Wh`;
}

/** Axis text at Mantine's xs (rem), recharts measuring it at that size too: it grows with a wall screen's base size. */
const TICK = { fill: 'currentColor', style: { fontSize: 'var(--mantine-font-size-xs)' } };

/**
 * Both charts' axes and height in rem, so they scale with the base size as the page around them does; the value axis
 * is as wide as its longest label (which therefore never wraps).
 */
const SCALED = {
  h: '16.25rem',
  xAxisProps: { tick: { ...TICK, transform: 'translate(0, 10)' } },
  // No shift sideways (Mantine's default): the measured width would not cover it.
  yAxisProps: { tick: TICK, tickMargin: 4, width: 'auto' as const },
};

/**
 * The energy page's charts (recharts through @mantine/charts). Loaded with import() by the page, so no route's first
 * download carries the chart library.
 */
export default function EnergyCharts({
  period,
  timeline,
  regions,
}: {
  period: EnergyPeriod;
  /** The points over time, with the clock their hours and days are read on (the region's or the lamp's); none yet while loading. */
  timeline: EnergySeries | undefined;
  regions: readonly EnergyRegionNode[];
}) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const series = [
    { name: 'energy', label: t('energy:fields.energy'), color: 'blue.6' },
    { name: 'full', label: t('energy:fields.full'), color: 'gray.5' },
  ];
  // Values in Wh; the axis and tooltips say Wh or kWh by the chart's largest value.
  // Labelled on the server's clock, not the browser's: a browser elsewhere shows the same hours as the schedules.
  const timeData = timeline
    ? timeline.points.map((p) => ({
        at: period === 'day' ? clockIn(p.at, timeline.timeZone) : dayOfMonthIn(p.at, timeline.timeZone),
        energy: p.energyWh,
        full: p.fullWh,
      }))
    : [];
  const regionData = regions.map((r) => ({ region: areaLabel(r, lang), energy: r.energyWh, saving: r.savingWh }));
  const timeFormat = formatterFor(Math.max(0, ...timeData.map((d) => d.full), ...timeData.map((d) => d.energy)));
  const regionFormat = formatterFor(Math.max(0, ...regionData.map((d) => d.energy + d.saving)));
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
      <Paper withBorder p="md" radius="md" data-testid="energy-chart-time">
        <Group justify="space-between" gap="xs" mb="sm">
          <Text size="sm" fw={500}>
            {period === 'day' ? t('energy:charts.byHour') : t('energy:charts.byDay')}
          </Text>
          {timeline && (
            <Text size="xs" c="dimmed" data-testid="energy-chart-zone">
              {t('energy:charts.timeZone', { zone: timeline.timeZone })}
            </Text>
          )}
        </Group>
        <AreaChart {...SCALED} data={timeData} dataKey="at" series={series} curveType="monotone" withLegend valueFormatter={timeFormat} />
      </Paper>
      <Paper withBorder p="md" radius="md" data-testid="energy-chart-regions">
        <Text size="sm" fw={500} mb="sm">
          {t('energy:charts.byRegion')}
        </Text>
        <BarChart
          {...SCALED}
          data={regionData}
          dataKey="region"
          type="stacked"
          series={[
            { name: 'energy', label: t('energy:fields.energy'), color: 'blue.6' },
            { name: 'saving', label: t('energy:fields.saving'), color: 'teal.5' },
          ]}
          withLegend
          valueFormatter={regionFormat}
        />
      </Paper>
    </SimpleGrid>
  );
}
