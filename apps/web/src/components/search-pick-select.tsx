import { useState } from 'react';
import { MultiSelect, type MultiSelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';

/** A record chosen in a search picker, with the label it showed when chosen (it stays after another search). */
export interface PickedItem {
  id: number;
  label: string;
}

/** The picker's typed search, and the same text once typing has paused (what a server-side search is asked). */
export function usePickSearch(delayMs = 300): { search: string; setSearch: (text: string) => void; query: string | undefined } {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), delayMs);
  return { search, setSearch, query: debounced || undefined };
}

/**
 * A multi-select over a server-side search: `found` are the records the current search found (a page of them), `value`
 * the chosen ones, which stay listed with their labels whatever is searched next. For lists too long to load whole.
 */
export function SearchPickSelect({
  value,
  onChange,
  found,
  search,
  onSearchChange,
  ...props
}: {
  value: readonly PickedItem[];
  onChange: (next: PickedItem[]) => void;
  found: readonly PickedItem[];
  search: string;
  onSearchChange: (text: string) => void;
} & Omit<MultiSelectProps, 'data' | 'value' | 'onChange' | 'searchValue' | 'onSearchChange' | 'searchable'>) {
  const chosen = new Map(value.map((c) => [String(c.id), c.label]));
  const options = new Map(chosen);
  for (const item of found) options.set(String(item.id), item.label);
  return (
    <MultiSelect
      searchable
      clearable
      // The server has searched (by name, code or account, which the label may not show): every option found stays.
      filter={({ options }) => options}
      {...props}
      searchValue={search}
      onSearchChange={onSearchChange}
      data={[...options].map(([id, label]) => ({ value: id, label }))}
      value={[...chosen.keys()]}
      onChange={(ids) => onChange(ids.map((id) => ({ id: Number(id), label: options.get(id) ?? id })))}
    />
  );
}
