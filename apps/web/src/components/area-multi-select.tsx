import { useMemo } from 'react';
import { MultiSelect, type MultiSelectProps } from '@mantine/core';
import { IconMapPin } from '@tabler/icons-react';
import type { AreaTreeNode } from '@sc/contracts';
import { currentLanguage } from '@/i18n';
import type { UiLanguage } from '@/i18n/languages';
import { areaLabel, useAreaTree } from '@/features/region/area-tree';

/** Every region of the tree, depth first, labelled by its path. */
function pathOptions(nodes: readonly AreaTreeNode[], lang: UiLanguage, above = ''): { value: string; label: string }[] {
  return nodes.flatMap((node) => {
    const label = above ? `${above} / ${areaLabel(node, lang)}` : areaLabel(node, lang);
    return [{ value: String(node.id), label }, ...pathOptions(node.childList ?? [], lang, label)];
  });
}

/**
 * Several regions of the region tree (GET /api/bi/area/queryAreaTree, the cascader's), each shown by its path
 * ('Shenzhen / Nanshan District') in the interface language and found by any part of it. For targets that take
 * regions with their sub-regions (an LED task's); one region is the AreaCascader's.
 */
export function AreaMultiSelect({
  value,
  onChange,
  ...props
}: { value: readonly number[]; onChange: (ids: number[]) => void } & Omit<MultiSelectProps, 'data' | 'value' | 'onChange'>) {
  const { tree } = useAreaTree();
  const lang = currentLanguage();
  const data = useMemo(() => pathOptions(tree, lang), [tree, lang]);
  return (
    <MultiSelect
      searchable
      clearable
      leftSection={<IconMapPin size={16} stroke={1.6} />}
      {...props}
      data={data}
      value={value.map(String)}
      onChange={(ids) => onChange(ids.map(Number))}
    />
  );
}
