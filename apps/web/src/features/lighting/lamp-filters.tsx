import { useEffect, useState } from 'react';
import { TextInput } from '@mantine/core';
import { Select } from '@/components/select';
import { useTranslation } from 'react-i18next';
import { DeviceType, LampStatus, OnlineState, type GatewayOption } from '@sc/contracts';
import { AreaCascader } from '@/components/area-cascader';
import { FilterBar } from '@/components/page-panel';
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
    <Select
      label={t('lighting:fields.networkStatus')}
      placeholder={t('lighting:list.all')}
      clearable
      data={[OnlineState.Online, OnlineState.Offline].map((s) => ({ value: String(s), label: t(`lighting:network.${s}`) }))}
      value={value === undefined ? null : String(value)}
      onChange={(v) => onChange(v === null ? undefined : (Number(v) as OnlineState))}
      w={{ base: '100%', sm: 140 }}
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
      <NetworkFilter value={draft.networkStatus} onChange={(networkStatus) => setDraft({ ...draft, networkStatus })} />
      {equipment && (
        <>
          <GatewayFilter
            gateways={gateways.data}
            value={draft.gatewayId}
            onChange={(gatewayId) => setDraft({ ...draft, gatewayId })}
            width={200}
            testId="lamp-filter-gateway"
          />
          <Select
            label={t('lighting:fields.group')}
            placeholder={t('lighting:list.all')}
            clearable
            data={(groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name }))}
            value={draft.groupId === undefined ? null : String(draft.groupId)}
            onChange={(v) => setDraft({ ...draft, groupId: v === null ? undefined : Number(v) })}
            w={{ base: '100%', sm: 180 }}
            data-testid="lamp-filter-group"
          />
        </>
      )}
    </FilterBar>
  );
}
