import { useEffect, useMemo, useState } from 'react';
import { Anchor, Button, Divider, Drawer, Group, Select, Stack, Table, Text, Textarea, Timeline } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconCheck, IconLock, IconNote } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  ALARM_LEVELS,
  Button as ButtonPermission,
  INCIDENT_NEARBY,
  INCIDENT_NOTE_MAX,
  INCIDENT_STATES,
  IncidentState,
  type AlarmLevel,
  type IncidentActionRow,
} from '@sc/contracts';
import { useButton } from '@/auth/session-store';
import { NameFilter, OptionFilter } from '@/components/filter-fields';
import { notifySuccess } from '@/components/notify';
import { FilterBar } from '@/components/page-panel';
import { TableFooter } from '@/components/table-footer';
import { NameCode } from '@/components/table-parts';
import { TABLE_STYLES, TableStatusRow } from '@/features/system/shared/table-states';
import { compact, paging } from '@/navigation/search-params';
import { parseTime } from '@/utils/format';
import { useIncidentAction, useIncidentDetail, useIncidentPage, useLiveIncidents } from './api';
import { CallSummary, IncidentPlace, IncidentStateBadge, LevelBadge } from './incident-parts';
import { IncidentResponses, RESPONSE_FAMILY, ResponseProgress, type FollowedDispatch } from './incident-responses';

/** The incidents' filters and page, and the incident shown, as the alarm page keeps them in its address. */
export interface IncidentSearch {
  pageNum?: number;
  pageSize?: number;
  state?: IncidentState;
  level?: AlarmLevel;
  name?: string;
  incident?: string;
}

type Draft = Pick<IncidentSearch, 'state' | 'level' | 'name'>;

/**
 * The alarm columns' incidents, newest first, live (IncidentChanged moves their rows, calls included): filtered by
 * state, level and column; one opens in a drawer with its log, to acknowledge, note, re-level and close.
 */
export function IncidentsView({ search, onSearch }: { search: IncidentSearch; onSearch: (next: IncidentSearch) => void }) {
  const { t } = useTranslation();
  const { pageNum, pageSize } = paging(search);
  useLiveIncidents();
  const page = useIncidentPage(compact({ pageNum, pageSize, state: search.state, level: search.level, name: search.name }));
  const rows = useMemo(() => page.data?.list ?? [], [page.data]);
  const [draft, setDraft] = useState<Draft>({ state: search.state, level: search.level, name: search.name });
  useEffect(() => setDraft({ state: search.state, level: search.level, name: search.name }), [search.state, search.level, search.name]);
  const filtered = Boolean(search.state || search.level !== undefined || search.name);

  return (
    <Stack gap="md">
      <FilterBar
        testId="incident"
        onSubmit={() => onSearch(compact({ ...search, ...draft, name: draft.name?.trim() || undefined, pageNum: undefined }))}
        onReset={() => onSearch(compact({ pageSize: search.pageSize }))}
      >
        <NameFilter
          label={t('alarmIntercom:fields.column')}
          value={draft.name}
          onChange={(name) => setDraft((d) => ({ ...d, name }))}
          maxLength={64}
          testId="incident-filter-name"
        />
        <OptionFilter
          label={t('alarmIntercom:fields.state')}
          placeholder={t('alarmIntercom:incidents.allStates')}
          options={INCIDENT_STATES.map((s) => ({ value: s, label: t(`alarmIntercom:state.${s}`) }))}
          value={draft.state}
          onChange={(state) => setDraft((d) => ({ ...d, state }))}
          testId="incident-filter-state"
        />
        <OptionFilter
          label={t('alarmIntercom:fields.level')}
          placeholder={t('alarmIntercom:incidents.allLevels')}
          options={ALARM_LEVELS.map((l) => ({ value: l, label: t(`alarmColumns:level.${l}`) }))}
          value={draft.level}
          onChange={(level) => setDraft((d) => ({ ...d, level }))}
          testId="incident-filter-level"
        />
      </FilterBar>
      <Table.ScrollContainer minWidth={720}>
        <Table striped highlightOnHover verticalSpacing="sm" styles={TABLE_STYLES} data-testid="incident-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('alarmIntercom:fields.pressedAt')}</Table.Th>
              <Table.Th>{t('alarmIntercom:fields.column')}</Table.Th>
              <Table.Th>{t('alarmIntercom:fields.level')}</Table.Th>
              <Table.Th>{t('alarmIntercom:fields.state')}</Table.Th>
              <Table.Th>{t('alarmIntercom:fields.call')}</Table.Th>
              <Table.Th>{t('alarmIntercom:fields.place')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody style={{ opacity: page.isPlaceholderData ? 0.6 : 1 }}>
            <TableStatusRow
              colSpan={6}
              loading={page.isPending}
              failed={page.isError && rows.length === 0}
              empty={page.isSuccess && rows.length === 0}
              filtered={filtered}
              onRetry={() => void page.refetch()}
            />
            {rows.map((incident) => (
              <Table.Tr
                key={incident.id}
                style={{ cursor: 'pointer' }}
                onClick={() => onSearch({ ...search, incident: incident.id })}
                data-testid={`incident-row-${incident.id}`}
              >
                <Table.Td>
                  <Text size="sm">{parseTime(incident.pressedAt)}</Text>
                </Table.Td>
                <Table.Td>
                  <NameCode name={incident.columnName} code={incident.columnCode} fw={500} />
                </Table.Td>
                <Table.Td>
                  <LevelBadge level={incident.level} />
                </Table.Td>
                <Table.Td>
                  <IncidentStateBadge state={incident.state} />
                </Table.Td>
                <Table.Td>
                  <CallSummary call={incident.call} />
                </Table.Td>
                <Table.Td>
                  <IncidentPlace incident={incident} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <TableFooter total={page.data?.total ?? 0} pageNum={pageNum} pageSize={pageSize} onChange={(next) => onSearch({ ...search, ...next })} />
      <IncidentDrawer id={search.incident ?? null} onClose={() => onSearch({ ...search, incident: undefined })} />
    </Stack>
  );
}

/**
 * One incident: where, its call, its log, and what operators do with it (Edit): acknowledge, notes, level, close, and
 * the responses around its column, whose dispatches the drawer follows live.
 */
function IncidentDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const detail = useIncidentDetail(id);
  const incident = detail.data;
  const mayHandle = useButton(ButtonPermission.Edit);
  const acknowledge = useIncidentAction('Acknowledge');
  const addNote = useIncidentAction('Note');
  const setLevel = useIncidentAction('Level');
  const close = useIncidentAction('Close');
  const [note, setNote] = useState('');
  const [followed, setFollowed] = useState<FollowedDispatch | null>(null);
  useEffect(() => {
    setNote('');
    setFollowed(null);
  }, [id]);
  const open = incident && incident.state !== IncidentState.Closed;
  const done = () => {
    setNote('');
    notifySuccess(t('alarmIntercom:incidents.done'));
  };

  return (
    <Drawer
      opened={id !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={incident ? `${incident.columnName} · ${parseTime(incident.pressedAt)}` : ''}
      data-testid="incident-drawer"
    >
      {incident && (
        <Stack gap="sm">
          <Group gap="xs">
            <LevelBadge level={incident.level} />
            <IncidentStateBadge state={incident.state} />
          </Group>
          <IncidentPlace incident={incident} />
          <CallSummary call={incident.call} />
          {open && mayHandle && (
            <Stack gap="xs">
              <Textarea
                label={t('alarmIntercom:incidents.note')}
                value={note}
                maxLength={INCIDENT_NOTE_MAX}
                autosize
                minRows={2}
                onChange={(e) => setNote(e.currentTarget.value)}
                data-testid="incident-note"
              />
              <Group gap="xs">
                {incident.state === IncidentState.Open && (
                  <Button
                    color="orange"
                    leftSection={<IconCheck size={16} />}
                    loading={acknowledge.isPending}
                    onClick={() => acknowledge.mutate({ id: incident.id, note: note.trim() || undefined }, { onSuccess: done })}
                    data-testid="incident-acknowledge"
                  >
                    {t('alarmIntercom:incidents.acknowledge')}
                  </Button>
                )}
                <Button
                  variant="default"
                  leftSection={<IconNote size={16} />}
                  disabled={note.trim() === ''}
                  loading={addNote.isPending}
                  onClick={() => addNote.mutate({ id: incident.id, note: note.trim() }, { onSuccess: done })}
                  data-testid="incident-add-note"
                >
                  {t('alarmIntercom:incidents.addNote')}
                </Button>
                <Button
                  variant="light"
                  color="gray"
                  leftSection={<IconLock size={16} />}
                  loading={close.isPending}
                  onClick={() =>
                    modals.openConfirmModal({
                      title: t('alarmIntercom:incidents.close'),
                      children: <Text size="sm">{t('alarmIntercom:incidents.closeConfirm')}</Text>,
                      labels: { confirm: t('alarmIntercom:incidents.close'), cancel: t('common:actions.cancel') },
                      confirmProps: { 'data-testid': 'incident-close-confirm' } as Record<string, string>,
                      onConfirm: () => close.mutate({ id: incident.id, note: note.trim() || undefined }, { onSuccess: done }),
                    })
                  }
                  data-testid="incident-close"
                >
                  {t('alarmIntercom:incidents.close')}
                </Button>
              </Group>
              <Select
                label={t('alarmIntercom:incidents.setLevel')}
                value={String(incident.level)}
                allowDeselect={false}
                data={ALARM_LEVELS.map((l) => ({ value: String(l), label: t(`alarmColumns:level.${l}`) }))}
                onChange={(value) => value !== null && setLevel.mutate({ id: incident.id, level: Number(value) }, { onSuccess: done })}
                w={200}
                data-testid="incident-level"
              />
              <Divider label={t('alarmIntercom:nearby.title', { radius: INCIDENT_NEARBY.radiusMeters })} labelPosition="left" />
              <IncidentResponses incident={incident} onSent={setFollowed} />
            </Stack>
          )}
          {followed && <ResponseProgress followed={followed} />}
          <Divider label={t('alarmIntercom:incidents.log')} labelPosition="left" />
          <Timeline bulletSize={12} lineWidth={2} data-testid="incident-log">
            {incident.actions.map((action) => (
              <Timeline.Item key={action.id} title={<ActionTitle action={action} onFollow={setFollowed} />}>
                <Text size="xs" c="dimmed">
                  {parseTime(action.at)}
                </Text>
                {action.note && <Text size="sm">{action.note}</Text>}
              </Timeline.Item>
            ))}
          </Timeline>
        </Stack>
      )}
    </Drawer>
  );
}

function ActionTitle({ action, onFollow }: { action: IncidentActionRow; onFollow: (followed: FollowedDispatch) => void }) {
  const { t } = useTranslation();
  const text = t(`alarmIntercom:actionKind.${action.kind}`, { user: action.userName, count: action.deviceCount ?? undefined });
  const family = RESPONSE_FAMILY[action.kind];
  return (
    <Text size="sm" fw={500} data-testid="incident-action" data-kind={action.kind}>
      {text}
      {action.level !== null && ` · ${t(`alarmColumns:level.${action.level}`)}`}
      {family && action.dispatchId && (
        <>
          {' · '}
          <Anchor
            component="button"
            size="sm"
            onClick={() => onFollow({ family, dispatchId: action.dispatchId! })}
            data-testid="incident-action-progress"
          >
            {t('alarmIntercom:nearby.progress')}
          </Anchor>
        </>
      )}
    </Text>
  );
}
