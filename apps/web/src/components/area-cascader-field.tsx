import { useMemo, useState } from 'react';
import { Cascader, type CascaderOption } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconMapPin } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { AreaTreeNode } from '@sc/contracts';
import { currentLanguage } from '@/i18n';
import type { UiLanguage } from '@/i18n/languages';
import { areaLabel, findAreaPath, flattenAreaTree, useAreaTree } from '@/features/region/area-tree';
import { AREA_CASCADER_WIDTH, type AreaCascaderProps } from './area-cascader';

function toOptions(nodes: AreaTreeNode[], lang: UiLanguage, disabled: ReadonlySet<number>): CascaderOption[] {
  return nodes.map((node) => {
    const children = node.childList ?? [];
    return {
      value: String(node.id),
      label: areaLabel(node, lang),
      disabled: disabled.has(node.id),
      ...(children.length > 0 ? { children: toOptions(children, lang, disabled) } : {}),
    };
  });
}

/**
 * Region picker over GET /api/bi/area/queryAreaTree (spec sections 3 and 9), in the manner of el-cascader: each level
 * opens its children in the next column and any level may be chosen, shown as its path ('Shenzhen / Nanshan District').
 * Type to search every path by label. On phones the columns become one list of paths. A failed tree load leaves the list
 * empty without a message.
 */
export function AreaCascaderField({
  value,
  onChange,
  placeholder,
  disabled,
  width = AREA_CASCADER_WIDTH,
  label,
  description,
  error,
  required,
  clearable = true,
  disabledIds,
  name,
  onBlur,
  onFocus,
  ...aria
}: AreaCascaderProps) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const { tree, isLoading } = useAreaTree();
  const narrow = useMediaQuery('(max-width: 36em)');
  const [opened, setOpened] = useState(false);
  const [search, setSearch] = useState('');

  const disabledKey = (disabledIds ?? []).join(',');
  // Every name of each region, so a search in one language also finds the others ('Xihu' finds 西湖区).
  const names = useMemo(
    () => new Map(flattenAreaTree(tree).map((node) => [String(node.id), [node.name, node.zhCn, node.enUs].map((n) => (n ?? '').toLowerCase())])),
    [tree],
  );
  const data = useMemo(() => toOptions(tree, lang, new Set(disabledKey ? disabledKey.split(',').map(Number) : [])), [tree, lang, disabledKey]);
  const chain = useMemo(() => (value === null || value === undefined ? null : findAreaPath(tree, value)), [tree, value]);
  const path = useMemo(() => chain?.map((node) => String(node.id)) ?? null, [chain]);
  const display = chain?.map((node) => areaLabel(node, lang)).join(' / ') ?? '';
  // Typed text other than the chosen path: the dropdown lists matching paths instead of columns.
  const searching = search.trim() !== '' && search !== display;

  return (
    <>
      <Cascader
        data={data}
        value={path}
        onChange={(next, options) => {
          const last = next && next.length > 0 ? next[next.length - 1] : null;
          onChange(last === null ? null : Number(last));
          // A leaf, or a path picked from the flat list, ends the choice; a level with children keeps its column open.
          const chosen = options[options.length - 1];
          if (!chosen || !chosen.children?.length || narrow || searching) setOpened(false);
        }}
        dropdownOpened={opened}
        onDropdownOpen={() => setOpened(true)}
        onDropdownClose={() => setOpened(false)}
        changeOnSelect
        allowDeselect={false}
        closeOnSelect={false}
        clearable={clearable}
        // Reachable by Tab as well, so the choice can be cleared without a mouse.
        clearButtonProps={{ tabIndex: 0, 'aria-hidden': undefined, 'aria-label': t('region:cascader.clear'), title: t('region:cascader.clear') }}
        searchable
        searchValue={search}
        onSearchChange={setSearch}
        filter={(query, options) => {
          const needle = query.trim().toLowerCase();
          if (!needle) return true;
          const labels = options.map((option) => String(option.label ?? option.value).toLowerCase());
          return labels.join(' / ').includes(needle) || options.some((option) => names.get(option.value)?.some((n) => n.includes(needle)));
        }}
        withColumns={!narrow}
        maxDisplayedLevels={3}
        maxDropdownHeight={300}
        nothingFoundMessage={isLoading ? t('common:feedback.loading') : t('region:cascader.nothingFound')}
        previousLevelsControlLabel={t('region:cascader.previousLevels')}
        nextLevelsControlLabel={t('region:cascader.nextLevels')}
        placeholder={placeholder ?? t('common:area.placeholder')}
        disabled={disabled}
        label={label}
        description={description}
        error={error}
        required={required}
        onBlur={onBlur}
        onFocus={onFocus}
        leftSection={<IconMapPin size={16} stroke={1.6} />}
        w={width}
        maw="100%"
        comboboxProps={{ shadow: 'md' }}
        {...aria}
      />
      {/* The region id itself (Mantine's own hidden input would carry the whole path). */}
      {name && <input type="hidden" name={name} value={value ?? ''} />}
    </>
  );
}
