import { useState } from 'react';
import { useDebouncedValue } from '@mantine/hooks';
import type { DevicePlacement } from '@sc/contracts';
import { Select } from '@/components/select';
import { usePolePage } from './api';

/**
 * The lamp pole a device is mounted on, chosen among the poles (for those who may read them), searched by name or
 * code; the device's current pole stays listed while another search is shown. Every family's form mounts its devices
 * with it.
 */
export function PoleField({
  label,
  placeholder,
  value,
  current,
  onChange,
  testId,
}: {
  label: string;
  /** Shown when none is chosen ('Not mounted'). */
  placeholder: string;
  value: number | null;
  /** Where the device being edited is mounted now. */
  current: Pick<DevicePlacement, 'poleId' | 'poleCode' | 'poleName'> | null;
  onChange: (id: number | null) => void;
  testId: string;
}) {
  const [keyword, setKeyword] = useState('');
  const [debounced] = useDebouncedValue(keyword, 300);
  const poles = usePolePage({ pageNum: 1, pageSize: 50, name: debounced.trim() || undefined });
  const options = (poles.data?.list ?? []).map((pole) => ({ value: String(pole.id), label: `${pole.name} (${pole.code})` }));
  if (current?.poleId && !options.some((o) => o.value === String(current.poleId)))
    options.unshift({ value: String(current.poleId), label: `${current.poleName ?? ''} (${current.poleCode ?? ''})` });
  return (
    <Select
      label={label}
      placeholder={placeholder}
      searchable
      clearable
      searchValue={keyword}
      onSearchChange={setKeyword}
      filter={({ options: all }) => all}
      data={options}
      value={value === null ? null : String(value)}
      onChange={(id) => onChange(id ? Number(id) : null)}
      data-testid={testId}
    />
  );
}
