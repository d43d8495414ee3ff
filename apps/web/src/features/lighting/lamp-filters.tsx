import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeviceType, LampStatus, OnlineState, type GatewayOption } from '@sc/contracts';
import { AreaCascader } from '@/components/area-cascader';
import { NameFilter, OptionFilter } from '@/components/filter-fields';
import { FilterBar } from '@/components/page-panel';
import { Select } from '@/components/select';
import { draftFields } from '@/components/use-paged-filters';
import { compact } from '@/navigation/search-params';
import { useGatewayOptions, useGroups } from './equipment-api';
import type { LampSearch } from './search';

const STATUSES = [
  LampStatus.Normal,
  LampStatus.Synchronizing,
  LampStatus.Distributing,
  LampStatus.DistributionSucceeded,
  LampStatus.DistributionFailed,
  LampStatus.Offline,
];

/** Filter by network state; any when cleared. */
export function NetworkFilter({ value, onChange }: { value: OnlineState | undefined; onChange: (value: OnlineState | undefined) => void }) {
  const { t } = useTranslation();
  return (
    <OptionFilter
      label={t('lighting:fields.networkStatus')}
      placeholder={t('lighting:list.all')}
      options={[OnlineState.Online, OnlineState.Offline].map((s) => ({ value: s, label: t(`lighting:network.${s}`) }))}
      value={value}
      onChange={onChange}
      width={140}
    />
  );
}

/** Filter by gateway, among `gateways`; any when cleared. */
export function GatewayFilter({
  gateways,
  value,
  onChange,
  width,
  testId,
}: {
  gateways: GatewayOption[] | undefined;
  value: string | undefined;
  onChange: (gatewayId: string | undefined) => void;
  width: number;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Select
      label={t('lighting:fields.gatewayId')}
      placeholder={t('lighting:list.all')}
      clearable
      searchable
      data={(gateways ?? []).map((g) => ({ value: g.gatewayId, label: `${g.gatewayId} · ${g.name}` }))}
      value={value ?? null}
      onChange={(v) => onChange(v ?? undefined)}
      w={{ base: '100%', sm: width }}
      data-testid={testId}
    />
  );
}

/** Name, region, status and network filters of the lamp lists (and gateway and group on the equipment page); applied to the address on search. */
export function LampFilters({
  search,
  onApply,
  equipment = false,
}: {
  search: LampSearch;
  onApply: (next: LampSearch) => void;
  equipment?: boolean;
}) {
  const { t } = useTranslation();
  const gateways = useGatewayOptions(equipment);
  const groups = useGroups(DeviceType.SingleLamp, equipment);
  const [draft, setDraft] = useState(search);
  const field = draftFields(draft, setDraft);
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
      <NameFilter
        label={t('lighting:fields.lampName')}
        placeholder={t('lighting:list.namePlaceholder')}
        {...field('lampName')}
        name="lampName"
        width={200}
      />
      <AreaCascader
        label={t('lighting:fields.region')}
        value={draft.regionId ?? null}
        onChange={(id) => setDraft({ ...draft, regionId: id ?? undefined })}
      />
      <OptionFilter
        label={t('lighting:fields.status')}
        placeholder={t('lighting:list.all')}
        options={STATUSES.map((s) => ({ value: s, label: t(`lighting:status.${s}`) }))}
        {...field('status')}
        testId="lamp-filter-status"
      />
      <NetworkFilter {...field('networkStatus')} />
      {equipment && (
        <>
          <GatewayFilter gateways={gateways.data} {...field('gatewayId')} width={200} testId="lamp-filter-gateway" />
          <OptionFilter
            label={t('lighting:fields.group')}
            placeholder={t('lighting:list.all')}
            options={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
            {...field('groupId')}
            testId="lamp-filter-group"
          />
        </>
      )}
    </FilterBar>
  );
}
