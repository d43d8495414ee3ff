import { useEffect, useMemo, useState } from 'react';
import { Badge, Table } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import {
  ACCOUNT_STATUSES,
  AccountStatus,
  CALL_PROTOCOLS,
  INTERCOM_ENDPOINT_KINDS,
  IntercomEndpointKind,
  ONLINE_STATES,
  OnlineState,
  type IntercomEndpointPageQuery,
} from '@sc/contracts';
import { NameFilter, OptionFilter } from '@/components/filter-fields';
import { FilterBar, PagePanel } from '@/components/page-panel';
import { TableFooter } from '@/components/table-footer';
import { OneLine } from '@/components/table-columns';
import { NameCode } from '@/components/table-parts';
import { TABLE_STYLES, TableStatusRow } from '@/features/system/shared/table-states';
import { compact, paging } from '@/navigation/search-params';
import { parseTime } from '@/utils/format';
import { useEndpointPage } from './api';
import type { EndpointSearch } from './search';

const route = getRouteApi('/_auth/_shell/alarmManage/equipmentInquiry');

type Draft = Omit<EndpointSearch, 'pageNum' | 'pageSize'>;
const toDraft = ({ pageNum: _n, pageSize: _s, ...draft }: EndpointSearch): Draft => draft;

/**
 * /alarmManage/equipmentInquiry: every endpoint of the intercom, the alarm columns and the agents' consoles, with what a
 * call needs (SIP account, protocol, account status), whether it can be reached now, the user group that takes (or
 * is) its calls, and its calls on record. Filtered by kind, protocol, account status and state.
 */
export function EquipmentInquiryPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { pageNum, pageSize } = paging(search);
  const query: IntercomEndpointPageQuery = compact({ pageNum, pageSize, ...toDraft(search) });
  const endpoints = useEndpointPage(query);
  const rows = useMemo(() => endpoints.data?.list ?? [], [endpoints.data]);
  const [draft, setDraft] = useState<Draft>(() => toDraft(search));
  useEffect(() => setDraft(toDraft(search)), [search]);
  const filtered = Object.keys(toDraft(search)).length > 0;

  return (
    <PagePanel title={t('common:route.equipmentInquiry')}>
      <FilterBar
        testId="endpoint"
        onSubmit={() => void navigate({ search: compact({ pageSize: search.pageSize, ...draft, keyword: draft.keyword?.trim() || undefined }) })}
        onReset={() => void navigate({ search: compact({ pageSize: search.pageSize }) })}
      >
        <NameFilter
          label={t('alarmIntercom:endpoints.keyword')}
          value={draft.keyword}
          onChange={(keyword) => setDraft((d) => ({ ...d, keyword }))}
          maxLength={64}
          width={200}
          testId="endpoint-filter-keyword"
        />
        <OptionFilter
          label={t('alarmIntercom:endpoints.kind')}
          placeholder={t('alarmIntercom:endpoints.allKinds')}
          options={INTERCOM_ENDPOINT_KINDS.map((v) => ({ value: v, label: t(`alarmIntercom:endpoints.kinds.${v}`) }))}
          value={draft.kind}
          onChange={(kind) => setDraft((d) => ({ ...d, kind }))}
          width={170}
          testId="endpoint-filter-kind"
        />
        <OptionFilter
          label={t('alarmIntercom:fields.protocol')}
          placeholder={t('alarmIntercom:endpoints.allProtocols')}
          options={CALL_PROTOCOLS.map((v) => ({ value: v, label: v }))}
          value={draft.protocol}
          onChange={(protocol) => setDraft((d) => ({ ...d, protocol }))}
          width={150}
          testId="endpoint-filter-protocol"
        />
        <OptionFilter
          label={t('alarmIntercom:fields.accountStatus')}
          placeholder={t('alarmIntercom:endpoints.allAccountStatuses')}
          options={ACCOUNT_STATUSES.map((v) => ({ value: v, label: t(`alarmIntercom:accountStatus.${v}`) }))}
          value={draft.accountStatus}
          onChange={(accountStatus) => setDraft((d) => ({ ...d, accountStatus }))}
          width={180}
          testId="endpoint-filter-account"
        />
        <OptionFilter
          label={t('alarmIntercom:endpoints.online')}
          placeholder={t('alarmIntercom:endpoints.allStates')}
          options={[...ONLINE_STATES].reverse().map((v) => ({ value: v, label: t(`alarmIntercom:endpoints.onlineState.${v}`) }))}
          value={draft.online}
          onChange={(online) => setDraft((d) => ({ ...d, online }))}
          width={160}
          testId="endpoint-filter-online"
        />
      </FilterBar>
      <Table.ScrollContainer minWidth={900}>
        <Table striped highlightOnHover verticalSpacing="sm" styles={TABLE_STYLES} data-testid="endpoint-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('alarmIntercom:endpoints.device')}</Table.Th>
              <Table.Th>{t('alarmIntercom:fields.sipAccount')}</Table.Th>
              <Table.Th>{t('alarmIntercom:fields.accountStatus')}</Table.Th>
              <Table.Th>{t('alarmIntercom:endpoints.online')}</Table.Th>
              <Table.Th>{t('alarmIntercom:fields.region')}</Table.Th>
              <Table.Th>{t('alarmIntercom:fields.group')}</Table.Th>
              <Table.Th ta="right">{t('alarmIntercom:endpoints.calls')}</Table.Th>
              <Table.Th>{t('alarmIntercom:endpoints.lastCall')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody style={{ opacity: endpoints.isPlaceholderData ? 0.6 : 1 }}>
            <TableStatusRow
              colSpan={8}
              loading={endpoints.isPending}
              failed={endpoints.isError && rows.length === 0}
              empty={endpoints.isSuccess && rows.length === 0}
              filtered={filtered}
              onRetry={() => void endpoints.refetch()}
            />
            {rows.map((row) => (
              <Table.Tr key={row.key} data-testid={`endpoint-row-${row.key}`}>
                <Table.Td>
                  <NameCode name={row.name} code={[t(`alarmIntercom:endpoints.kinds.${row.kind}`), row.code].filter(Boolean).join(' · ')} fw={500} />
                </Table.Td>
                <Table.Td data-testid="endpoint-sip">
                  <NameCode name={row.sipAccount || '—'} code={row.protocol} />
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color={row.accountStatus === AccountStatus.Normal ? 'blue' : 'gray'} data-testid="endpoint-account">
                    {t(`alarmIntercom:accountStatus.${row.accountStatus}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Badge
                    variant="dot"
                    color={row.online === OnlineState.Online ? 'teal' : 'gray'}
                    data-testid="endpoint-online"
                    data-online={row.online}
                  >
                    {row.kind === IntercomEndpointKind.Agent && row.agentMode
                      ? t(`alarmIntercom:mode.${row.agentMode}`)
                      : t(`alarmIntercom:endpoints.onlineState.${row.online}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <OneLine>{row.regionName ?? '—'}</OneLine>
                </Table.Td>
                <Table.Td>
                  {row.groupName ? <OneLine>{row.groupName}</OneLine> : <OneLine c="dimmed">{t('alarmIntercom:endpoints.noGroup')}</OneLine>}
                </Table.Td>
                <Table.Td ta="right" data-testid="endpoint-calls">
                  {row.callCount}
                </Table.Td>
                <Table.Td>{row.lastCallAt ? parseTime(row.lastCallAt) : '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <TableFooter
        total={endpoints.data?.total ?? 0}
        pageNum={pageNum}
        pageSize={pageSize}
        onChange={(page) => void navigate({ search: { ...search, ...page } })}
      />
    </PagePanel>
  );
}
