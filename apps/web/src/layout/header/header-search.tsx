import { useEffect, useMemo, useState } from 'react';
import { Select, type ComboboxItem, type OptionsFilter } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useSettings } from '@/settings/settings-store';
import { searchablePages } from '@/navigation/permitted-routes';
import { buildSearchPages, createMenuSearch, loadPinyin, type ToPinyin } from '@/navigation/menu-search';
import { usePermittedRoutes } from '../use-menu';

/** Header search over the menu titles the user may open (spec sections 2 and 9). */
export function HeaderSearch() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const routes = usePermittedRoutes();
  const pinyinSearch = useSettings((s) => s.pinyinSearch);
  const [toPinyin, setToPinyin] = useState<ToPinyin | undefined>(undefined);
  const [active, setActive] = useState(false);

  useEffect(() => {
    if (!active || !pinyinSearch || toPinyin) return;
    let cancelled = false;
    void loadPinyin().then((fn) => !cancelled && setToPinyin(() => fn));
    return () => {
      cancelled = true;
    };
  }, [active, pinyinSearch, toPinyin]);

  const pages = useMemo(
    () =>
      buildSearchPages(
        searchablePages(routes).map((p) => ({ path: p.path, titles: p.titles.map((key) => t(`common:route.${key}`)) })),
        pinyinSearch ? toPinyin : undefined,
      ),
    // i18n.language: titles follow the interface language.
    [routes, pinyinSearch, toPinyin, t, i18n.language],
  );
  const search = useMemo(() => createMenuSearch(pages), [pages]);
  const data = useMemo(() => pages.map((p) => ({ value: p.path, label: p.title.join(' > ') })), [pages]);
  const filter: OptionsFilter = ({ options, search: query }) => {
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
