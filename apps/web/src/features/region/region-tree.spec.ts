import type { AreaTreeNode } from '@sc/contracts';
import { areaLabel, areaPathLabel, findAreaPath, flattenAreaTree, regionLabeller } from './area-tree';
import { countRegions, filterRegions, parentIds, subtreeIds, visibleRows } from './region-tree-utils';

const node = (id: number, name: string, zhCn: string, enUs: string, parentId: number | null, childList: AreaTreeNode[] = []): AreaTreeNode => ({
  id,
  name,
  zhCn,
  enUs,
  remark: '',
  parentId,
  childList,
});

const TREE: AreaTreeNode[] = [
  node(1, 'Shenzhen', '深圳市', 'Shenzhen City', null, [
    node(2, 'Futian District', '福田区', 'Futian', 1, [node(3, 'Lianhua', '莲花街道', '', 2)]),
    node(5, 'Nanshan District', '', 'Nanshan', 1),
  ]),
  node(8, 'Hangzhou', '杭州市', 'Hangzhou', null),
];

describe('area labels', () => {
  it('uses zhCn in Chinese, enUs in English, and name otherwise or when the translation is empty', () => {
    const shenzhen = TREE[0];
    expect(areaLabel(shenzhen, 'zh')).toBe('深圳市');
    expect(areaLabel(shenzhen, 'en')).toBe('Shenzhen City');
    expect(areaLabel(shenzhen, 'es')).toBe('Shenzhen');
    expect(areaLabel(shenzhen, 'ja')).toBe('Shenzhen');
    expect(areaLabel(TREE[0].childList[1], 'zh')).toBe('Nanshan District');
  });

  it('finds the path to a region and labels it', () => {
    expect(findAreaPath(TREE, 3)?.map((n) => n.id)).toEqual([1, 2, 3]);
    expect(findAreaPath(TREE, 99)).toBeNull();
    expect(areaPathLabel(TREE, 3, 'zh')).toBe('深圳市 / 福田区 / 莲花街道');
    expect(areaPathLabel(TREE, 3, 'en')).toBe('Shenzhen City / Futian / Lianhua');
    expect(areaPathLabel(TREE, null, 'en')).toBe('');
    expect(flattenAreaTree(TREE).map((n) => n.id)).toEqual([1, 2, 3, 5, 8]);
  });
});

describe("a row's region label", () => {
  // Names are unique only among siblings: a city and a district of another city may both be 'Nanshan'.
  const SAME_NAMES: AreaTreeNode[] = [
    node(1, 'Shenzhen', '深圳市', 'Shenzhen City', null, [node(2, 'Nanshan', '南山区', 'Nanshan District', 1)]),
    node(7, 'Nanshan', '南山市', 'Nanshan City', null),
  ];

  it('labels the region of the row by its id, not by a name another region shares', () => {
    const zh = regionLabeller(SAME_NAMES, 'zh');
    expect(zh({ regionId: 2, regionName: 'Nanshan' })).toBe('南山区');
    expect(zh({ regionId: 7, regionName: 'Nanshan' })).toBe('南山市');
    const en = regionLabeller(SAME_NAMES, 'en');
    expect(en({ regionId: 7, regionName: 'Nanshan' })).toBe('Nanshan City');
    expect(en({ regionId: 2, regionName: 'Nanshan' })).toBe('Nanshan District');
    expect(regionLabeller(SAME_NAMES, 'ja')({ regionId: 2, regionName: 'Nanshan' })).toBe('Nanshan');
  });

  it("shows the row's own name for a region the tree does not hold, and a dash for none", () => {
    const zh = regionLabeller(SAME_NAMES, 'zh');
    expect(zh({ regionId: 99, regionName: 'Removed meanwhile' })).toBe('Removed meanwhile');
    expect(zh({ regionId: null, regionName: null })).toBe('—');
    expect(regionLabeller([], 'zh')({ regionId: 2, regionName: 'Nanshan' })).toBe('Nanshan');
  });
});

describe('region tree table helpers', () => {
  it('filters by any name, keeping ancestors', () => {
    const filtered = filterRegions(TREE, '莲花', 'en');
    expect(flattenAreaTree(filtered).map((n) => n.id)).toEqual([1, 2, 3]);
    expect(flattenAreaTree(filterRegions(TREE, 'nanshan', 'zh')).map((n) => n.id)).toEqual([1, 5]);
    expect(filterRegions(TREE, '  ', 'en')).toBe(TREE);
    expect(filterRegions(TREE, 'nowhere', 'en')).toEqual([]);
  });

  it('hides the children of collapsed regions unless filtering', () => {
    expect(visibleRows(TREE, new Set(), false).map((r) => [r.node.id, r.depth])).toEqual([
      [1, 0],
      [2, 1],
      [3, 2],
      [5, 1],
      [8, 0],
    ]);
    expect(visibleRows(TREE, new Set([2]), false).map((r) => r.node.id)).toEqual([1, 2, 5, 8]);
    expect(visibleRows(TREE, new Set(parentIds(TREE)), false).map((r) => r.node.id)).toEqual([1, 8]);
    expect(visibleRows(TREE, new Set([1]), true).map((r) => r.node.id)).toEqual([1, 2, 3, 5, 8]);
  });

  it('counts regions and lists a subtree', () => {
    expect(countRegions(TREE)).toBe(5);
    expect(parentIds(TREE)).toEqual([1, 2]);
    expect(subtreeIds(TREE[0])).toEqual([1, 2, 3, 5]);
  });
});
