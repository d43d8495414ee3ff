import { useState } from 'react';

/**
 * Filters typed into a filter bar (`draft`) and applied on Search, plus the page of a paged table, held in the
 * component: `filterBar` goes to FilterBar, `footer(total)` to TableFooter, `query` to the list's query.
 */
export function usePagedFilters<F extends { name?: string }>() {
  const [filters, setFilters] = useState<F>({} as F);
  const [draft, setDraft] = useState<F>({} as F);
  const [page, setPage] = useState({ pageNum: 1, pageSize: 20 });
  return {
    filters,
    draft,
    setDraft,
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
