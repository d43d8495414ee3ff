import { useEffect, useMemo, useState } from 'react';
import { Select, type ComboboxItem, type OptionsFilter } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useSettings } from '@/settings/settings-store';
import { searchablePages } from '@/navigation/permitted-routes';
import type { SearchPage, ToPinyin } from '@/navigation/menu-search';

type MenuSearchModule = typeof import('@/navigation/menu-search');
import { usePermittedRoutes } from '../use-menu';

/** Header search over the menu titles the user may open (spec sections 2 and 9). */
export function HeaderSearch() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const routes = usePermittedRoutes();
  const pinyinSearch = useSettings((s) => s.pinyinSearch);
  const [toPinyin, setToPinyin] = useState<ToPinyin | undefined>(undefined);
  const [engine, setEngine] = useState<MenuSearchModule | null>(null);
  const [active, setActive] = useState(false);

  // Fuse.js and pinyin-pro load on the first focus of the search box, not with the page.
  useEffect(() => {
    if (!active) return;
    let cancelled = false;
    void import('@/navigation/menu-search').then(async (module) => {
      if (cancelled) return;
      setEngine(module);
      if (pinyinSearch && !toPinyin) {
        const fn = await module.loadPinyin();
        if (!cancelled) setToPinyin(() => fn);
      }
    });
    return () => {
      cancelled = true;
    };
  }, [active, pinyinSearch, toPinyin]);

  const titled = useMemo(
    () => searchablePages(routes).map((p) => ({ path: p.path, titles: p.titles.map((key) => t(`common:route.${key}`)) })),
    [routes, t],
  );
  const search = useMemo((): ((query: string) => SearchPage[]) => {
    if (!engine) return () => [];
    return engine.createMenuSearch(engine.buildSearchPages(titled, pinyinSearch ? toPinyin : undefined));
  }, [engine, titled, pinyinSearch, toPinyin]);
  const data = useMemo(() => titled.map((p) => ({ value: p.path, label: p.titles.join(' > ') })), [titled]);
  const filter: OptionsFilter = ({ options, search: query }) => {
    // Nothing typed yet: every page the user may open, in menu order.
    if (!query.trim()) return options;
    const byPath = new Map((options as ComboboxItem[]).map((o) => [o.value, o]));
    return search(query).flatMap((page) => byPath.get(page.path) ?? []);
  };

  return (
    <Select
      size="xs"
      w={{ base: 150, md: 210 }}
      visibleFrom="sm"
      searchable
      clearable
      value={null}
      data={data}
      filter={filter}
      placeholder={t('common:nav.search')}
      aria-label={t('common:nav.search')}
      nothingFoundMessage={t('common:nav.noMatch')}
      leftSection={<IconSearch size={14} />}
      rightSection={<span />}
      onFocus={() => setActive(true)}
      onChange={(path) => path && void navigate({ to: path })}
      data-testid="header-search"
      comboboxProps={{ width: 280, position: 'bottom-end' }}
    />
  );
}
