import { useState, type Dispatch, type SetStateAction } from 'react';

/**
 * Binds the filter fields (components/filter-fields) to a draft: `field(key)` is the value of that key and the change
 * that sets that key alone, spread into a NameFilter or an OptionFilter.
 */
export function draftFields<F extends object>(draft: F, setDraft: Dispatch<SetStateAction<F>>) {
  return <K extends keyof F>(key: K) => ({
    value: draft[key],
    onChange: (value: F[K]) => setDraft((d) => ({ ...d, [key]: value })),
  });
}

/**
 * Filters typed into a filter bar (`draft`) and applied on Search, plus the page of a paged table, held in the
 * component: `filterBar` goes to FilterBar, `field(key)` to its fields (draftFields), `footer(total)` to TableFooter,
 * `query` to the list's query.
 */
export function usePagedFilters<F extends { name?: string }>() {
  const [filters, setFilters] = useState<F>({} as F);
  const [draft, setDraft] = useState<F>({} as F);
  const [page, setPage] = useState({ pageNum: 1, pageSize: 20 });
  return {
    filters,
    draft,
    setDraft,
    field: draftFields(draft, setDraft),
    query: { ...filters, ...page },
    filterBar: {
      onSubmit: () => {
        setFilters({ ...draft, name: draft.name?.trim() || undefined });
        setPage((p) => ({ ...p, pageNum: 1 }));
      },
      onReset: () => {
        setDraft({} as F);
        setFilters({} as F);
      },
    },
    footer: (total: number) => ({
      total,
      pageNum: page.pageNum,
      pageSize: page.pageSize,
      onChange: (p: { pageNum: number; pageSize: number }) => setPage((old) => ({ ...old, ...p })),
    }),
  };
}
