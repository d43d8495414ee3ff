import type { AreaTreeNode } from '@sc/contracts';
import type { UiLanguage } from '@/i18n/languages';
import { areaLabel } from './area-tree';

/** One visible row of the region tree table. */
export interface RegionRow {
  node: AreaTreeNode;
  depth: number;
  hasChildren: boolean;
  expanded: boolean;
}

/** Every name a region is known by, for matching a filter. */
export function regionNames(node: AreaTreeNode, lang: UiLanguage): string[] {
  return [areaLabel(node, lang), node.name, node.zhCn, node.enUs].filter((name) => !!name);
}

/** Keeps the regions whose name (in any language) contains the query, with their ancestors, like el-tree's filter. */
export function filterRegions(tree: AreaTreeNode[], query: string, lang: UiLanguage): AreaTreeNode[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return tree;
  return tree.flatMap((node) => {
    const children = filterRegions(node.childList ?? [], query, lang);
    const matches = regionNames(node, lang).some((name) => name.toLowerCase().includes(needle));
    return matches || children.length > 0 ? [{ ...node, childList: children }] : [];
  });
}

/** The rows to show: depth first, skipping the children of collapsed regions (none are collapsed while filtering). */
export function visibleRows(tree: AreaTreeNode[], collapsed: ReadonlySet<number>, ignoreCollapsed: boolean, depth = 0): RegionRow[] {
  return tree.flatMap((node) => {
    const children = node.childList ?? [];
    const expanded = children.length > 0 && (ignoreCollapsed || !collapsed.has(node.id));
    const row: RegionRow = { node, depth, hasChildren: children.length > 0, expanded };
    return expanded ? [row, ...visibleRows(children, collapsed, ignoreCollapsed, depth + 1)] : [row];
  });
}

/** Ids of the regions that have sub-regions (what 'collapse all' folds). */
export function parentIds(tree: AreaTreeNode[]): number[] {
  return tree.flatMap((node) => (node.childList?.length ? [node.id, ...parentIds(node.childList)] : []));
}

/** The region and every region below it: none of them can become its parent. */
export function subtreeIds(node: AreaTreeNode): number[] {
  return [node.id, ...(node.childList ?? []).flatMap(subtreeIds)];
}

export function countRegions(tree: AreaTreeNode[]): number {
  return tree.reduce((sum, node) => sum + 1 + countRegions(node.childList ?? []), 0);
}
