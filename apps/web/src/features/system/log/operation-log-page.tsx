import { useEffect, useMemo, useState } from 'react';
import { Badge, Code, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { Select } from '@/components/select';
import { IconUser } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { OperationModule, OperationStatus, type OperationLogQuery, type OperationLogRow } from '@sc/contracts';
import { FilterBar, PagePanel } from '@/components/page-panel';
import { TableFooter } from '@/components/table-footer';
import { formatTime, parseTime } from '@/utils/format';
import { DateTimeField } from '@/components/date-inputs';
import { localIso } from '../shared/date-fields';
import { compact, paging } from '@/navigation/search-params';
import { TABLE_STYLES, TableStatusRow } from '../shared/table-states';
import { ColumnCells, ColumnHeads, OneLine, PinnedActionsCell, TableBox, useTableColumns } from '@/components/table-columns';
import { useSignagePage } from '@/features/signage/api';
import { useOperationLog } from './api';
import { KNOWN_ACTIONS, useActionLabel } from './log-labels';
import { RequestParamsCell, RequestParamsModal } from './request-params';
import type { LogSearch } from './search';

const route = getRouteApi('/_auth/_shell/systemSetting/log');

interface Draft {
  module: string | null;
  deviceId: string | null;
  operator: string;
  status: string | null;
  description: string | null;
  startTime: string;
  endTime: string;
}

const toDraft = (s: LogSearch): Draft => ({
  module: s.module ?? null,
  deviceId: s.deviceId === undefined ? null : String(s.deviceId),
  operator: s.operator ?? '',
  status: s.status ?? null,
  description: s.description ?? null,
  startTime: s.startTime ?? '',
  endTime: s.endTime ?? '',
});

const MODULES: readonly OperationModule[] = [
  OperationModule.System,
  OperationModule.Lighting,
  OperationModule.Broadcast,
  OperationModule.Led,
  OperationModule.Signage,
];

/** System setting › Operation log: who called which audited API, when, from where, with what and how it ended (administrators only). */
export function OperationLogPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  return <OperationLogView title={t('common:route.log')} search={search} go={(next, replace) => void navigate({ search: next, replace })} />;
}

/**
 * The operation log as a page shows it: filtered by module (or of one `module`, the page of a module's log), device
 * (the floor screens' calls that name one), operator, action, status and time range, kept in the address by `go`.
 */
export function OperationLogView({
  title,
  search,
  go,
  module,
}: {
  title: string;
  search: LogSearch;
  go: (next: LogSearch, replace?: boolean) => void;
  module?: OperationModule;
}) {
  const { t } = useTranslation();
  const actionLabel = useActionLabel();
  const shownModule = module ?? search.module;
  const [deviceName, setDeviceName] = useState('');
  const devices = useSignagePage({ pageNum: 1, pageSize: 50, name: deviceName.trim() || undefined }, shownModule === OperationModule.Signage);

  const { pageNum, pageSize } = paging(search);
  const query: OperationLogQuery = {
    pageNum,
    pageSize,
    module: shownModule,
    deviceId: search.deviceId,
    operator: search.operator,
    status: search.status,
    description: search.description,
    startTime: localIso(search.startTime),
    endTime: localIso(search.endTime),
  };
  const log = useOperationLog(query, module !== undefined);
  const rows = useMemo(() => log.data?.list ?? [], [log.data]);
  const total = log.data?.total ?? 0;
  const filtered = Boolean(
    search.module || search.deviceId || search.operator || search.status || search.description || search.startTime || search.endTime,
  );

  const [draft, setDraft] = useState<Draft>(() => toDraft(search));
  useEffect(() => setDraft(toDraft(search)), [search]);
  const [params, setParams] = useState<{ opened: boolean; row: OperationLogRow | null }>({ opened: false, row: null });
  const columns = useTableColumns<OperationLogRow>('operation-log', [
    {
      key: 'description',
      label: t('system:log.description'),
      always: true,
      cell: (row) => (
        <Text size="sm" fw={500} maw="14rem" truncate="end" title={row.description} data-testid="log-description">
          {actionLabel(row.description)}
        </Text>
      ),
    },
    { key: 'method', label: t('system:log.methodName'), hidden: true, cell: (row) => <Code style={{ fontSize: 11 }}>{row.methodName}</Code> },
    {
      key: 'params',
      label: t('system:log.requestParams'),
      cell: (row) => <RequestParamsCell row={row} onOpen={(r) => setParams({ opened: true, row: r })} />,
    },
    {
      key: 'operator',
      label: t('system:log.operator'),
      cell: (row) => (
        <OneLine maw="9rem" data-testid="log-operator">
          {row.operator}
        </OneLine>
      ),
    },
    { key: 'ip', label: t('system:log.operationIp'), hidden: true, cell: (row) => row.operationIp },
    {
      key: 'time',
      label: t('system:log.operationTime'),
      cell: (row) => (
        <Tooltip label={formatTime(row.operationTime)} withArrow openDelay={300}>
          <Text size="sm">{parseTime(row.operationTime)}</Text>
        </Tooltip>
      ),
    },
    {
      key: 'status',
      label: t('system:log.status'),
      cell: (row) => (
        <Tooltip label={row.errorMessage ?? ''} disabled={!row.errorMessage} withArrow multiline maw={320}>
          <Badge
            variant="light"
            color={row.status === OperationStatus.Success ? 'teal' : 'red'}
            radius="sm"
            tt="none"
            miw="max-content"
            data-testid="log-status"
            style={{ cursor: row.errorMessage ? 'help' : undefined }}
          >
            {row.status === OperationStatus.Success ? t('system:log.success') : t('system:log.failure')}
          </Badge>
        </Tooltip>
      ),
    },
    {
      key: 'duration',
      label: t('system:log.duration'),
      align: 'right',
      cell: (row) => (
        <Text size="sm" c={row.durationMs >= 1000 ? 'orange.7' : undefined}>
          {t('system:log.durationMs', { ms: row.durationMs })}
        </Text>
      ),
    },
  ]);

  useEffect(() => {
    if (log.data && log.data.list.length === 0 && total > 0 && pageNum > 1) {
      go({ ...search, pageNum: Math.max(1, Math.ceil(total / pageSize)) }, true);
    }
  }, [log.data, total, pageNum, pageSize, go, search]);

  // Known operations in the interface language, plus any other description seen on this page.
  const descriptionOptions = useMemo(() => {
    const values = new Set([...Object.keys(KNOWN_ACTIONS), ...rows.map((r) => r.description)]);
    if (search.description) values.add(search.description);
    return [...values].map((value) => ({ value, label: actionLabel(value) }));
  }, [rows, search.description, actionLabel]);

  const statusOptions = [
    { value: OperationStatus.Success, label: t('system:log.success') },
    { value: OperationStatus.Failure, label: t('system:log.failure') },
  ];

  const apply = () => {
    const next: LogSearch = compact({
      pageSize: search.pageSize,
      module: module ? undefined : ((draft.module as OperationModule | null) ?? undefined),
      deviceId: draft.deviceId === null ? undefined : Number(draft.deviceId),
      operator: draft.operator.trim() || undefined,
      status: (draft.status as OperationStatus | null) ?? undefined,
      description: draft.description ?? undefined,
      startTime: draft.startTime || undefined,
      endTime: draft.endTime || undefined,
    });
    if (JSON.stringify(next) === JSON.stringify(compact({ ...search, pageNum: undefined }))) void log.refetch();
    else go(next);
  };

  const clear = () => {
    setDraft(toDraft({}));
    go(compact({ pageSize: search.pageSize }));
  };

  return (
    <PagePanel title={title}>
      <FilterBar onSubmit={apply} onReset={clear} testId="log">
        {!module && (
          <Select
            label={t('system:log.module')}
            placeholder={t('system:log.modulePlaceholder')}
            data={MODULES.map((value) => ({ value, label: t(`system:log.modules.${value}`) }))}
            value={draft.module}
            onChange={(value) => setDraft((d) => ({ ...d, module: value, deviceId: value === OperationModule.Signage ? d.deviceId : null }))}
            clearable
            w={{ base: '100%', xs: 160 }}
            data-testid="log-filter-module"
          />
        )}
        {(module ?? draft.module) === OperationModule.Signage && (
          <Select
            label={t('system:log.device')}
            placeholder={t('system:log.devicePlaceholder')}
            data={(devices.data?.list ?? []).map((d) => ({ value: String(d.id), label: `${d.name} (${d.code})` }))}
            value={draft.deviceId}
            onChange={(value) => setDraft((d) => ({ ...d, deviceId: value }))}
            onSearchChange={setDeviceName}
            searchable
            clearable
            nothingFoundMessage={t('common:feedback.noData')}
            w={{ base: '100%', xs: 200 }}
            data-testid="log-filter-device"
          />
        )}
        <TextInput
          label={t('system:log.operator')}
          name="operator"
          placeholder={t('system:log.operatorPlaceholder')}
          leftSection={<IconUser size={16} />}
          value={draft.operator}
          onChange={(e) => {
            const operator = e.currentTarget.value;
            setDraft((d) => ({ ...d, operator }));
          }}
          maxLength={64}
          w={{ base: '100%', xs: 180 }}
        />
        <Select
          label={t('system:log.description')}
          placeholder={t('system:log.descriptionPlaceholder')}
          data={descriptionOptions}
          value={draft.description}
          onChange={(value) => setDraft((d) => ({ ...d, description: value }))}
          searchable
          clearable
          nothingFoundMessage={t('common:feedback.noData')}
          w={{ base: '100%', xs: 200 }}
          data-testid="log-filter-description"
        />
        <Select
          label={t('system:log.status')}
          placeholder={t('system:log.statusPlaceholder')}
          data={statusOptions}
          value={draft.status}
          onChange={(value) => setDraft((d) => ({ ...d, status: value }))}
          clearable
          w={{ base: '100%', xs: 140 }}
          data-testid="log-filter-status"
        />
        <DateTimeField
          label={t('system:log.startTime')}
          value={draft.startTime}
          max={draft.endTime}
          onChange={(value) => setDraft((d) => ({ ...d, startTime: value }))}
          data-testid="log-filter-start"
        />
        <DateTimeField
          label={t('system:log.endTime')}
          value={draft.endTime}
          min={draft.startTime}
          onChange={(value) => setDraft((d) => ({ ...d, endTime: value }))}
          data-testid="log-filter-end"
        />
      </FilterBar>

      <TableBox>
        <Table striped highlightOnHover verticalSpacing="sm" styles={TABLE_STYLES} data-testid="log-table">
          <ColumnHeads columns={columns} actions={false} />
          <Table.Tbody style={{ opacity: log.isPlaceholderData ? 0.6 : 1, transition: 'opacity 120ms' }}>
            <TableStatusRow
              colSpan={columns.span()}
              loading={log.isPending}
              failed={log.isError && rows.length === 0}
              empty={log.isSuccess && rows.length === 0}
              filtered={filtered}
              onRetry={() => void log.refetch()}
            />
            {rows.map((row) => (
              <Table.Tr key={row.id} data-testid="log-row">
                <ColumnCells columns={columns} row={row} />
                <PinnedActionsCell />
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableBox>

      <TableFooter
        total={total}
        pageNum={pageNum}
        pageSize={pageSize}
        onChange={(page) => go(compact({ ...search, pageNum: page.pageNum > 1 ? page.pageNum : undefined, pageSize: page.pageSize }))}
      />

      <RequestParamsModal row={params.row} opened={params.opened} onClose={() => setParams((p) => ({ ...p, opened: false }))} />
    </PagePanel>
  );
}
