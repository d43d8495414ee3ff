import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AreaTreeNode } from '@sc/contracts';
import { get } from '@/api/request';
import { currentLanguage } from '@/i18n';
import type { UiLanguage } from '@/i18n/languages';

/** Query key of the region tree: invalidate it after any region change so every cascader and tree refreshes. */
export const AREA_TREE_KEY = ['areaTree'] as const;

const EMPTY_TREE: AreaTreeNode[] = [];

/**
 * Spec sections 3 and 9: zhCn in Chinese, enUs in English, falling back to name. The spec names no rule for Spanish
 * and Japanese, so they show `name`, the region's own name as the operator entered it.
 */
export function areaLabel(node: Pick<AreaTreeNode, 'name' | 'zhCn' | 'enUs'>, lang: UiLanguage): string {
  const translated = lang === 'zh' ? node.zhCn : lang === 'en' ? node.enUs : '';
  return translated?.trim() || node.name;
}

/** GET /api/bi/area/queryAreaTree. Silent: a failed load leaves an empty list and shows no message (spec section 7). */
export function fetchAreaTree(signal?: AbortSignal): Promise<AreaTreeNode[]> {
  return get<AreaTreeNode[] | null>('/bi/area/queryAreaTree', undefined, { silent: true, signal }).then((tree) => tree ?? []);
}

export interface AreaTreeResult {
  /** The tree, or an empty list while loading or after a failed load. */
  tree: AreaTreeNode[];
  isLoading: boolean;
  isFetching: boolean;
  isError: boolean;
  refetch: () => void;
}

/** The region tree shared by the cascader and the region pages (react-query key ['areaTree']). */
export function useAreaTree(): AreaTreeResult {
  const query = useQuery({ queryKey: AREA_TREE_KEY, queryFn: ({ signal }) => fetchAreaTree(signal) });
  return {
    tree: query.data ?? EMPTY_TREE,
    isLoading: query.isLoading,
    isFetching: query.isFetching,
    isError: query.isError,
    refetch: () => void query.refetch(),
  };
}

/** Ids from the root down to `id` (inclusive), or null when the tree does not hold it. */
export function findAreaPath(tree: AreaTreeNode[], id: number): AreaTreeNode[] | null {
  for (const node of tree) {
    if (node.id === id) return [node];
    const below = findAreaPath(node.childList ?? [], id);
    if (below) return [node, ...below];
  }
  return null;
}

/** Every node, depth first. */
export function flattenAreaTree(tree: AreaTreeNode[]): AreaTreeNode[] {
  return tree.flatMap((node) => [node, ...flattenAreaTree(node.childList ?? [])]);
}

/** 'Shenzhen / Nanshan District' for a region id, in the given language; empty when unknown. */
export function areaPathLabel(tree: AreaTreeNode[], id: number | null | undefined, lang: UiLanguage, separator = ' / '): string {
  if (id === null || id === undefined) return '';
  return (findAreaPath(tree, id) ?? []).map((node) => areaLabel(node, lang)).join(separator);
}

/** What a list row says of its region: the region's id, and its own name for a region the tree does not (yet) hold. */
export interface RegionOfRow {
  regionId: number | null;
  regionName: string | null;
}

/**
 * The label of a row's region in a language, by the rule of areaLabel. Looked up by id: region names are unique only
 * among siblings, so two regions at different places in the tree may share one. A region the tree does not hold is
 * shown by the row's own name; a row without a region as a dash.
 */
export function regionLabeller(tree: AreaTreeNode[], lang: UiLanguage): (row: RegionOfRow) => string {
  const byId = new Map(flattenAreaTree(tree).map((node) => [node.id, node]));
  return ({ regionId, regionName }) => {
    const node = regionId === null ? undefined : byId.get(regionId);
    return node ? areaLabel(node, lang) : regionName || '—';
  };
}

/**
 * A row's region in the interface language, wherever it appears: lamps, poles, gateways, alarms, energy, broadcast.
 */
export function useRegionLabel(): (row: RegionOfRow) => string {
  const { tree } = useAreaTree();
  // Re-rendered when the interface language changes.
  useTranslation();
  const lang = currentLanguage();
  return useMemo(() => regionLabeller(tree, lang), [tree, lang]);
}
