import { useEffect, useMemo, useState } from 'react';
import { Badge, Button, Checkbox, Group, SegmentedControl, Table, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconBellCheck, IconBellOff, IconHistory } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import {
  ALARM_KINDS,
  ALARM_STATES,
  AlarmState,
  Button as ButtonPermission,
  DeviceFamily,
  FaultCode,
  type AlarmPageQuery,
  type AlarmRow,
  type FamilyName,
} from '@sc/contracts';
import { useButton } from '@/auth/session-store';
import { AreaCascader } from '@/components/area-cascader';
import { NameFilter, OptionFilter } from '@/components/filter-fields';
import { notifySuccess } from '@/components/notify';
import { FilterBar, PagePanel } from '@/components/page-panel';
import { TableFooter } from '@/components/table-footer';
import { DateTimeField } from '@/components/date-inputs';
import { localIso } from '@/features/system/shared/date-fields';
import { TABLE_STYLES, TableStatusRow } from '@/features/system/shared/table-states';
import {
  ColumnCells,
  ColumnHeads,
  OneLine,
  PinnedActionsCell,
  TableBox,
  useTableColumns,
  type Column,
  type TableColumns,
} from '@/components/table-columns';
import { NameCode } from '@/components/table-parts';
import { draftFields } from '@/components/use-paged-filters';
import { compact, paging } from '@/navigation/search-params';
import { formatTime, parseTime } from '@/utils/format';
import { AlarmLabel, AlarmStateBadge } from './alarm-badges';
import {
  DEVICE_ALARM_SOURCE,
  LAMP_ALARM_SOURCE,
  useAcknowledgeAlarms,
  useAlarmFamilies,
  useAlarmPage,
  useAlarmSummary,
  useClearAlarms,
  useLiveAlarms,
  type AlarmSource,
} from './api';
import type { AlarmSearch } from './search';
import { useRegionLabel } from '@/features/region/area-tree';

const lampRoute = getRouteApi('/_auth/_shell/smartLamp/lampAlarm');
const FAULT_CODES = Object.values(FaultCode).filter((v): v is FaultCode => typeof v === 'number');

type Draft = Pick<AlarmSearch, 'family' | 'regionId' | 'kind' | 'code' | 'state' | 'keyword' | 'from' | 'to'>;
const toDraft = (s: AlarmSearch): Draft => ({
  family: s.family,
  regionId: s.regionId,
  kind: s.kind,
  code: s.code,
  state: s.state,
  keyword: s.keyword,
  from: s.from,
  to: s.to,
});

/** /smartLamp/lampAlarm: the lamps' alarms, live, and their history, with acknowledge and clear. */
export function LampAlarmPage() {
  const { t } = useTranslation();
  const search = lampRoute.useSearch();
  const navigate = lampRoute.useNavigate();
  return (
    <AlarmPage
      source={LAMP_ALARM_SOURCE}
      title={t('common:route.lampAlarm')}
      families={LAMP_FAMILIES}
      search={search}
      go={(next) => void navigate({ search: next })}
    />
  );
}

const LAMP_FAMILIES: readonly FamilyName[] = [DeviceFamily.Lamp];

/** Live feeds of one family's alarm changes (one component a family: the feeds follow the families shown). */
function AlarmFeed({ family }: { family: FamilyName }) {
  useLiveAlarms(family);
  return null;
}

/**
 * The live list of open alarms and their history, with acknowledge and clear, for a source (the lamps', or every
 * family's the caller sees: then with a family filter and column). The search is the route's.
 */
export function AlarmPage({
  source,
  title,
  families,
  search,
  go,
  familyFilter = false,
}: {
  source: AlarmSource;
  title: string;
  /** The families shown: their events keep the page live. */
  families: readonly FamilyName[];
  search: AlarmSearch;
  go: (next: AlarmSearch) => void;
  familyFilter?: boolean;
}) {
  const { t } = useTranslation();
  const navigate = ({ search: next }: { search: AlarmSearch }) => go(next);
  const { pageNum, pageSize } = paging(search);
  const view = search.view ?? 'open';
  const canChange = useButton(ButtonPermission.Edit);
  const columns = useTableColumns(familyFilter ? 'device-alarms' : 'alarms', useAlarmColumns(familyFilter));
  const lampsShown = families.includes(DeviceFamily.Lamp);

  const query: AlarmPageQuery = compact({
    pageNum,
    pageSize,
    open: view === 'open' ? true : undefined,
    regionId: search.regionId,
    kind: search.code !== undefined ? undefined : search.kind,
    code: search.code,
    state: view === 'history' ? search.state : undefined,
    deviceId: search.deviceId,
    keyword: search.keyword,
    raisedFrom: localIso(search.from),
    raisedTo: localIso(search.to),
  });
  const alarms = useAlarmPage(source, compact({ ...query, family: search.family }));
  const summary = useAlarmSummary(source, search.family);
  const acknowledge = useAcknowledgeAlarms(source);
  const clear = useClearAlarms(source);
  const rows = useMemo(() => alarms.data?.list ?? [], [alarms.data]);
  const total = alarms.data?.total ?? 0;

  const [draft, setDraft] = useState<Draft>(() => toDraft(search));
  const field = draftFields(draft, setDraft);
  useEffect(() => setDraft(toDraft(search)), [search]);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  // A selection is only of what is on screen: a row that left the page (cleared, filtered out) is dropped.
  useEffect(() => setSelected((current) => new Set([...current].filter((id) => rows.some((r) => r.id === id)))), [rows]);

  const filtered = Boolean(
    search.family || search.regionId || search.kind || search.code || search.state || search.keyword || search.from || search.to,
  );
  const apply = () =>
    void navigate({
      search: compact({
        view: search.view,
        // A device's history is of its family: another family is another list.
        deviceId: draft.family === search.family ? search.deviceId : undefined,
        pageSize: search.pageSize,
        ...draft,
        keyword: draft.keyword?.trim() || undefined,
      }),
    });
  const reset = () => void navigate({ search: compact({ view: search.view, pageSize: search.pageSize }) });

  const selectable = rows.filter((r) => r.state !== AlarmState.Cleared);
  const allSelected = selectable.length > 0 && selectable.every((r) => selected.has(r.id));
  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const run = (action: 'acknowledge' | 'clear', ids: number[]) => {
    const mutation = action === 'acknowledge' ? acknowledge : clear;
    modals.openConfirmModal({
      title: t(`alarms:confirm.${action}Title`),
      children: <Text size="sm">{t(`alarms:confirm.${action}Text`, { count: ids.length })}</Text>,
      labels: { confirm: t(`alarms:actions.${action}`), cancel: t('common:actions.cancel') },
      confirmProps: { color: action === 'clear' ? 'gray' : 'orange', 'data-testid': 'alarm-confirm' } as Record<string, string>,
      onConfirm: () =>
        mutation.mutate(
          { ids },
          {
            onSuccess: ({ changed }) => {
              notifySuccess(t(`alarms:feedback.${action === 'acknowledge' ? 'acknowledged' : 'cleared'}`, { count: changed }));
              setSelected(new Set());
            },
          },
        ),
    });
  };

  const deviceName = search.deviceId ? rows.find((r) => r.deviceId === search.deviceId)?.deviceName : undefined;

  return (
    <PagePanel
      title={title}
      actions={
        <Group gap="xs" data-testid="alarm-summary">
          <Badge color="red" variant="filled" size="lg" data-testid="alarm-summary-active">
            {t('alarms:summary.active', { count: summary.data?.active ?? 0 })}
          </Badge>
          <Badge color="orange" variant="light" size="lg" data-testid="alarm-summary-acknowledged">
            {t('alarms:summary.acknowledged', { count: summary.data?.acknowledged ?? 0 })}
          </Badge>
        </Group>
      }
    >
      {families.map((family) => (
        <AlarmFeed key={family} family={family} />
      ))}
      <Group justify="space-between" wrap="wrap">
        <SegmentedControl
          value={view}
          onChange={(v) =>
            void navigate({
              search: compact({ ...search, view: v === 'open' ? undefined : (v as AlarmSearch['view']), pageNum: undefined, state: undefined }),
            })
          }
          data={[
            { value: 'open', label: t('alarms:view.open') },
            { value: 'history', label: t('alarms:view.history') },
          ]}
          aria-label={t('alarms:view.label')}
          data-testid="alarm-view"
        />
        {canChange && (
          <Group gap="xs">
            <Button
              leftSection={<IconBellCheck size={16} />}
              color="orange"
              variant="light"
              disabled={selected.size === 0}
              loading={acknowledge.isPending}
              onClick={() => run('acknowledge', [...selected])}
              data-testid="alarm-acknowledge-selected"
            >
              {t('alarms:actions.acknowledgeSelected', { count: selected.size })}
            </Button>
            <Button
              leftSection={<IconBellOff size={16} />}
              variant="default"
              disabled={selected.size === 0}
              loading={clear.isPending}
              onClick={() => run('clear', [...selected])}
              data-testid="alarm-clear-selected"
            >
              {t('alarms:actions.clearSelected', { count: selected.size })}
            </Button>
          </Group>
        )}
      </Group>

      <FilterBar onSubmit={apply} onReset={reset} testId="alarm">
        {familyFilter && (
          <OptionFilter
            label={t('alarms:fields.family')}
            placeholder={t('alarms:filters.allFamilies')}
            options={families.map((f) => ({ value: f, label: t(`alarms:family.${f}`) }))}
            value={draft.family}
            onChange={(family) => setDraft((d) => ({ ...d, family }))}
            width={190}
            testId="alarm-filter-family"
          />
        )}
        <NameFilter
          label={t(familyFilter ? 'alarms:fields.anyDevice' : 'alarms:fields.device')}
          placeholder={t(familyFilter ? 'alarms:filters.devicePlaceholder' : 'alarms:filters.keywordPlaceholder')}
          {...field('keyword')}
          maxLength={64}
          width={180}
          testId="alarm-filter-keyword"
        />
        <AreaCascader
          label={t('alarms:fields.region')}
          value={draft.regionId ?? null}
          onChange={(id) => setDraft((d) => ({ ...d, regionId: id ?? undefined }))}
        />
        <OptionFilter
          label={t('alarms:fields.kind')}
          placeholder={t('alarms:filters.all')}
          options={ALARM_KINDS.map((k) => ({ value: k, label: t(`alarms:kind.${k}`) }))}
          value={draft.kind}
          onChange={(kind) => setDraft((d) => ({ ...d, kind, code: kind && kind !== 'fault' ? undefined : d.code }))}
          width={190}
          testId="alarm-filter-kind"
        />
        {lampsShown && (
          <OptionFilter
            label={t('alarms:fields.code')}
            placeholder={t('alarms:filters.all')}
            options={FAULT_CODES.map((c) => ({ value: c, label: `${c} · ${t(`lighting:fault.${c}`)}` }))}
            value={draft.code}
            onChange={(code) => setDraft((d) => ({ ...d, code, kind: code === undefined ? d.kind : undefined }))}
            width={190}
            testId="alarm-filter-code"
          />
        )}
        {view === 'history' && (
          <OptionFilter
            label={t('alarms:fields.state')}
            placeholder={t('alarms:filters.all')}
            options={ALARM_STATES.map((s) => ({ value: s, label: t(`alarms:state.${s}`) }))}
            {...field('state')}
            width={150}
            testId="alarm-filter-state"
          />
        )}
        <DateTimeField
          label={t('alarms:fields.from')}
          value={draft.from ?? ''}
          max={draft.to}
          onChange={(from) => setDraft((d) => ({ ...d, from: from || undefined }))}
          data-testid="alarm-filter-from"
        />
        <DateTimeField
          label={t('alarms:fields.to')}
          value={draft.to ?? ''}
          min={draft.from}
          onChange={(to) => setDraft((d) => ({ ...d, to: to || undefined }))}
          data-testid="alarm-filter-to"
        />
      </FilterBar>

      {search.deviceId !== undefined && (
        <Group gap="xs" data-testid="alarm-device-filter">
          <Text size="sm">{t('alarms:deviceFilter', { name: deviceName ?? `#${search.deviceId}` })}</Text>
          <Button
            size="compact-sm"
            variant="subtle"
            onClick={() => void navigate({ search: compact({ ...search, deviceId: undefined, pageNum: undefined }) })}
          >
            {t('alarms:actions.showAll')}
          </Button>
        </Group>
      )}

      <TableBox>
        <Table striped highlightOnHover verticalSpacing="sm" styles={TABLE_STYLES} data-testid="alarm-table">
          <ColumnHeads
            columns={columns}
            lead={
              <Table.Th w={40}>
                {canChange && (
                  <Checkbox
                    aria-label={t('alarms:actions.selectPage')}
                    checked={allSelected}
                    indeterminate={!allSelected && selectable.some((r) => selected.has(r.id))}
                    onChange={() => setSelected(allSelected ? new Set() : new Set(selectable.map((r) => r.id)))}
                    data-testid="alarm-select-page"
                  />
                )}
              </Table.Th>
            }
          />
          <Table.Tbody style={{ opacity: alarms.isPlaceholderData ? 0.6 : 1 }}>
            <TableStatusRow
              colSpan={columns.span(1)}
              loading={alarms.isPending}
              failed={alarms.isError && rows.length === 0}
              empty={alarms.isSuccess && rows.length === 0}
              filtered={filtered}
              onRetry={() => void alarms.refetch()}
            />
            {rows.map((alarm) => (
              <AlarmTableRow
                key={alarm.id}
                alarm={alarm}
                columns={columns}
                selected={selected.has(alarm.id)}
                canChange={canChange}
                onToggle={() => toggle(alarm.id)}
                onAction={(action) => run(action, [alarm.id])}
                onHistory={() =>
                  void navigate({
                    // With its family: a lamp gateway's or a floor screen's id is its record's, not a registry device's.
                    search: compact<AlarmSearch>({
                      view: 'history',
                      deviceId: alarm.deviceId,
                      family: familyFilter ? alarm.family : undefined,
                      pageSize: search.pageSize,
                    }),
                  })
                }
              />
            ))}
          </Table.Tbody>
        </Table>
      </TableBox>
      <TableFooter total={total} pageNum={pageNum} pageSize={pageSize} onChange={(page) => void navigate({ search: { ...search, ...page } })} />
    </PagePanel>
  );
}

/** The alarm list's columns; every one shows by default (the device's name stays on one line); the family with `withFamily`. */
function useAlarmColumns(withFamily: boolean): Column<AlarmRow>[] {
  const { t } = useTranslation();
  const regionLabel = useRegionLabel();
  const familyColumn: Column<AlarmRow>[] = withFamily
    ? [{ key: 'family', label: t('alarms:fields.family'), cell: (alarm) => <OneLine maw="9rem">{t(`alarms:family.${alarm.family}`)}</OneLine> }]
    : [];
  return [
    ...familyColumn,
    {
      key: 'raisedAt',
      label: t('alarms:fields.raisedAt'),
      cell: (alarm) => (
        <Tooltip label={parseTime(alarm.raisedAt)} withArrow openDelay={300}>
          <Text size="sm">{formatTime(alarm.raisedAt)}</Text>
        </Tooltip>
      ),
    },
    {
      key: 'device',
      label: t(withFamily ? 'alarms:fields.anyDevice' : 'alarms:fields.device'),
      always: true,
      cell: (alarm) => <NameCode name={alarm.deviceName} code={alarm.deviceCode} fw={500} />,
    },
    { key: 'region', label: t('alarms:fields.region'), cell: (alarm) => <OneLine maw="10rem">{regionLabel(alarm)}</OneLine> },
    { key: 'alarm', label: t('alarms:fields.alarm'), cell: (alarm) => <AlarmLabel alarm={alarm} /> },
    { key: 'state', label: t('alarms:fields.state'), cell: (alarm) => <AlarmStateBadge state={alarm.state} /> },
    {
      key: 'handled',
      label: t('alarms:fields.handled'),
      // Beside the family, in the column chooser: the list fits a 1440-pixel screen in every language.
      hidden: withFamily,
      wrap: true,
      cell: (alarm) => (
        <>
          {alarm.acknowledgedAt && (
            <Text size="xs">{t('alarms:handled.acknowledged', { who: alarm.acknowledgedBy ?? '', time: parseTime(alarm.acknowledgedAt) })}</Text>
          )}
          {alarm.clearedAt && (
            <Text size="xs" c="dimmed">
              {alarm.clearedBy
                ? t('alarms:handled.clearedBy', { who: alarm.clearedBy, time: parseTime(alarm.clearedAt) })
                : t('alarms:handled.clearedByDevice', { time: parseTime(alarm.clearedAt) })}
            </Text>
          )}
        </>
      ),
    },
  ];
}

function AlarmTableRow({
  alarm,
  columns,
  selected,
  canChange,
  onToggle,
  onAction,
  onHistory,
}: {
  alarm: AlarmRow;
  columns: TableColumns<AlarmRow>;
  selected: boolean;
  canChange: boolean;
  onToggle: () => void;
  onAction: (action: 'acknowledge' | 'clear') => void;
  onHistory: () => void;
}) {
  const { t } = useTranslation();
  const open = alarm.state !== AlarmState.Cleared;
  return (
    <Table.Tr data-testid={`alarm-row-${alarm.deviceCode}`} data-alarm={alarm.id} data-state={alarm.state}>
      <Table.Td>{canChange && open && <Checkbox checked={selected} onChange={onToggle} aria-label={alarm.deviceName} />}</Table.Td>
      <ColumnCells columns={columns} row={alarm} />
      <PinnedActionsCell>
        {canChange && alarm.state === AlarmState.Active && (
          <Button size="compact-sm" variant="light" color="orange" onClick={() => onAction('acknowledge')} data-testid="alarm-acknowledge">
            {t('alarms:actions.acknowledge')}
          </Button>
        )}
        {canChange && open && (
          <Button size="compact-sm" variant="default" onClick={() => onAction('clear')} data-testid="alarm-clear">
            {t('alarms:actions.clear')}
          </Button>
        )}
        <Tooltip label={t('alarms:actions.history')} withArrow>
          <Button size="compact-sm" variant="subtle" onClick={onHistory} aria-label={t('alarms:actions.history')} data-testid="alarm-history">
            <IconHistory size={16} />
          </Button>
        </Tooltip>
      </PinnedActionsCell>
    </Table.Tr>
  );
}

const deviceRoute = getRouteApi('/_auth/_shell/alarmManage/deviceAlarms');

/**
 * /alarmManage/deviceAlarms: the alarms of every device family the operator's roles see (offline devices, loads over
 * their threshold, the lamps' faults for administrators), live, with a family filter; acknowledge and clear.
 */
export function DeviceAlarmsPage() {
  const { t } = useTranslation();
  const search = deviceRoute.useSearch();
  const navigate = deviceRoute.useNavigate();
  const families = useAlarmFamilies();
  if (!families.data) return null;
  return (
    <AlarmPage
      source={DEVICE_ALARM_SOURCE}
      title={t('common:route.deviceAlarms')}
      families={families.data}
      search={search}
      go={(next) => void navigate({ search: next })}
      familyFilter
    />
  );
}
