import { Suspense, useMemo, useState } from 'react';
import { Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { WIFI_REGION_SERIES_MAX, type AreaTreeNode } from '@sc/contracts';
import { AreaCascader } from '@/components/area-cascader';
import { AreaMultiSelect } from '@/components/area-multi-select';
import { flattenAreaTree, useAreaTree } from '@/features/region/area-tree';
import { LazyExportButton } from '@/features/imports/lazy-buttons';
import { RegionClientChart } from './wifi-charts';

/** The regions just below `nodes`' parent, each compared with its sub-regions: at most WIFI_REGION_SERIES_MAX. */
const idsOf = (nodes: readonly AreaTreeNode[]) => nodes.slice(0, WIFI_REGION_SERIES_MAX).map((node) => node.id);

/**
 * terminalManage, By region: the clients of several regions over the last day side by side, a line per region (its
 * access points and those of its sub-regions). Choosing a region compares the regions just below it (or the region
 * itself when it has none); the regions compared can be changed one by one (at most 20). Until a choice, the regions
 * just below the city are compared. The chart's data downloads as an xlsx, a column per region.
 */
export function RegionComparison({ value, onChange }: { value: number[] | undefined; onChange: (ids: number[]) => void }) {
  const { t } = useTranslation();
  const { tree } = useAreaTree();
  const [parent, setParent] = useState<number | null>(null);
  const [cut, setCut] = useState(false);
  const fallback = useMemo(() => idsOf(tree.length === 1 ? (tree[0].childList ?? []) : tree), [tree]);
  const ids = value ?? fallback;

  const compareBelow = (id: number | null) => {
    setParent(id);
    if (id === null) return;
    const node = flattenAreaTree(tree).find((n) => n.id === id);
    const below = node?.childList ?? [];
    setCut(below.length > WIFI_REGION_SERIES_MAX);
    onChange(below.length > 0 ? idsOf(below) : [id]);
  };

  return (
    <Stack gap="sm" data-testid="wifi-regions">
      <Group align="flex-end" gap="sm">
        <AreaCascader label={t('wifi:regions.below')} value={parent} onChange={compareBelow} data-testid="wifi-regions-parent" />
        <AreaMultiSelect
          label={t('wifi:regions.compared')}
          value={ids}
          onChange={(next) => {
            setCut(false);
            onChange(next);
          }}
          maxValues={WIFI_REGION_SERIES_MAX}
          w={520}
          data-testid="wifi-regions-select"
        />
        {ids.length > 0 && (
          <Suspense fallback={null}>
            <LazyExportButton kind="regionClients" search={{ regionIds: ids.join(',') }} />
          </Suspense>
        )}
      </Group>
      <Text size="xs" c="dimmed">
        {cut ? t('wifi:regions.cut', { max: WIFI_REGION_SERIES_MAX }) : t('wifi:regions.hint', { max: WIFI_REGION_SERIES_MAX })}
      </Text>
      {ids.length > 0 ? (
        <RegionClientChart regionIds={ids} />
      ) : (
        <Text size="sm" c="dimmed">
          {t('wifi:regions.none')}
        </Text>
      )}
    </Stack>
  );
}
