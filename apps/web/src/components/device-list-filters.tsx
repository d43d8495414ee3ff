import type { ReactNode } from 'react';
import { TextInput } from '@mantine/core';
import { AreaCascader } from '@/components/area-cascader';
import { FilterBar } from '@/components/page-panel';

/**
 * The filter bar of a device list kept in the address: a name (trimmed on Search), a region (and the regions below
 * it), and whatever else the family filters by as `children`. Reset clears the form and the list's filters.
 */
export function DeviceListFilters<S extends { regionId?: number }, K extends keyof S & string>({
  testId,
  nameKey,
  nameLabel,
  regionLabel,
  draft,
  setDraft,
  apply,
  children,
}: {
  testId: string;
  nameKey: K;
  nameLabel: string;
  regionLabel: string;
  draft: S;
  setDraft: (next: S) => void;
  apply: (next: S) => void;
  children?: ReactNode;
}) {
  const name = (draft[nameKey] as string | undefined) ?? '';
  return (
    <FilterBar
      onSubmit={() => apply({ ...draft, [nameKey]: name.trim() || undefined })}
      onReset={() => {
        setDraft({} as S);
        apply({} as S);
      }}
      testId={testId}
    >
      <TextInput
        label={nameLabel}
        value={name}
        onChange={(e) => setDraft({ ...draft, [nameKey]: e.currentTarget.value })}
        name={nameKey}
        w={{ base: '100%', sm: 200 }}
      />
      <AreaCascader label={regionLabel} value={draft.regionId ?? null} onChange={(id) => setDraft({ ...draft, regionId: id ?? undefined })} />
      {children}
    </FilterBar>
  );
}
