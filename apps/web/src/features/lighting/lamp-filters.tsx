import { useEffect, useState } from 'react';
import { Select, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LampStatus, OnlineState } from '@sc/contracts';
import { AreaCascader } from '@/components/area-cascader';
import { FilterBar } from '@/components/page-panel';
import { compact } from '@/navigation/search-params';
import type { LampSearch } from './search';

const STATUSES = [LampStatus.Normal, LampStatus.Distributing, LampStatus.DistributionSucceeded, LampStatus.DistributionFailed, LampStatus.Offline];

/** Name, region, status and network filters of the lamp lists; applied to the address on search. */
export function LampFilters({ search, onApply }: { search: LampSearch; onApply: (next: LampSearch) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(search);
  useEffect(() => setDraft(search), [search]);
  const apply = () => onApply(compact({ pageSize: search.pageSize, ...draft, pageNum: undefined, lampName: draft.lampName?.trim() || undefined }));
  return (
    <FilterBar
      onSubmit={apply}
      onReset={() => {
        setDraft({});
        onApply(compact({ pageSize: search.pageSize }));
      }}
      testId="lamp"
    >
      <TextInput
        label={t('lighting:fields.lampName')}
        placeholder={t('lighting:list.namePlaceholder')}
        value={draft.lampName ?? ''}
        onChange={(e) => setDraft({ ...draft, lampName: e.currentTarget.value })}
        name="lampName"
        w={{ base: '100%', sm: 200 }}
      />
      <AreaCascader
        label={t('lighting:fields.region')}
        value={draft.regionId ?? null}
        onChange={(id) => setDraft({ ...draft, regionId: id ?? undefined })}
      />
      <Select
        label={t('lighting:fields.status')}
        placeholder={t('lighting:list.all')}
        clearable
        data={STATUSES.map((s) => ({ value: String(s), label: t(`lighting:status.${s}`) }))}
        value={draft.status === undefined ? null : String(draft.status)}
        onChange={(v) => setDraft({ ...draft, status: v === null ? undefined : (Number(v) as LampStatus) })}
        w={{ base: '100%', sm: 180 }}
        data-testid="lamp-filter-status"
      />
      <Select
        label={t('lighting:fields.networkStatus')}
        placeholder={t('lighting:list.all')}
        clearable
        data={[OnlineState.Online, OnlineState.Offline].map((s) => ({ value: String(s), label: t(`lighting:network.${s}`) }))}
        value={draft.networkStatus === undefined ? null : String(draft.networkStatus)}
        onChange={(v) => setDraft({ ...draft, networkStatus: v === null ? undefined : (Number(v) as OnlineState) })}
        w={{ base: '100%', sm: 140 }}
      />
    </FilterBar>
  );
}
