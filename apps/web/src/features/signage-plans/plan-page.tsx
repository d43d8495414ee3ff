import { useState } from 'react';
import { Badge, Button, Group, Stack, Table, Tabs } from '@mantine/core';
import { IconListCheck, IconPlus, IconSend } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { AD_PUBLISH_NAME_MAX, AdPlanStatus, Button as ButtonPermission, SIGNAGE_FAMILY, type AdPlanRow } from '@sc/contracts';
import { useButton } from '@/auth/session-store';
import { confirmed, deleteAfterConfirm } from '@/components/confirm';
import { DayField } from '@/components/date-inputs';
import { Deferred, lazyComponent } from '@/components/deferred';
import { NameFilter, OptionFilter } from '@/components/filter-fields';
import { notifySuccess } from '@/components/notify';
import { FilterBar, PagePanel } from '@/components/page-panel';
import { EditDeleteCell, IconAction } from '@/components/row-actions';
import { ColumnCells, ColumnHeads, OneLine, TableBox, useTableColumns } from '@/components/table-columns';
import { TableFooter } from '@/components/table-footer';
import { TableEmptyRow } from '@/components/table-parts';
import { usePagedFilters } from '@/components/use-paged-filters';
import { parseTime } from '@/utils/format';
import { usePlanPage, usePublishPlan, useDeletePlan } from './api';

// The editor, the receive-status drawer and the calendar load when first opened, keeping the page's first load small.
const PlanEditorModal = lazyComponent(() => import('./plan-editor'), 'PlanEditorModal');
const PlanReceiversDrawer = lazyComponent(() => import('./plan-receivers'), 'PlanReceiversDrawer');
const PlanCalendar = lazyComponent(() => import('./plan-calendar'), 'PlanCalendar');

const STATUS_COLOR: Record<AdPlanStatus, string> = {
  [AdPlanStatus.Unpublished]: 'gray',
  [AdPlanStatus.Published]: 'teal',
  [AdPlanStatus.Expired]: 'orange',
};

/** /floor-screen/ad-plan, Ad Plan Management: the plans, and a calendar of what plays when with its conflicts. */
export function AdPlanPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<string | null>('list');
  return (
    <PagePanel title={t('common:route.adPlan')}>
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="list" data-testid="plan-tab-list">
            {t('signagePlans:tabs.list')}
          </Tabs.Tab>
          <Tabs.Tab value="calendar" data-testid="plan-tab-calendar">
            {t('signagePlans:tabs.calendar')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="list" pt="md">
          <PlansTab />
        </Tabs.Panel>
        <Tabs.Panel value="calendar" pt="md">
          <PlanCalendar />
        </Tabs.Panel>
      </Tabs>
    </PagePanel>
  );
}

function PlansTab() {
  const { t } = useTranslation();
  const { draft, setDraft, field, query, filterBar, footer } = usePagedFilters<{ name?: string; status?: AdPlanStatus; date?: string }>();
  const { name, ...rest } = query;
  const plans = usePlanPage({ ...rest, publishName: name });
  const remove = useDeletePlan();
  const publish = usePublishPlan();
  const canAdd = useButton(ButtonPermission.Add);
  const canEdit = useButton(ButtonPermission.Edit);
  const canDelete = useButton(ButtonPermission.Delete);
  const canPublish = useButton(SIGNAGE_FAMILY.actions.publish);
  const [editing, setEditing] = useState<{ row: AdPlanRow | null } | null>(null);
  const [watching, setWatching] = useState<AdPlanRow | null>(null);
  const rows = plans.data?.list ?? [];
  const f = (field: string) => t(`signagePlans:fields.${field}`);

  const publishPlan = async (plan: AdPlanRow) => {
    const ok = await confirmed({
      title: t('signagePlans:publish'),
      detail: t('signagePlans:publishConfirm', { name: plan.publishName }),
      confirm: t('signagePlans:publish'),
      testId: 'plan-publish-confirm',
    });
    if (!ok) return;
    try {
      await publish.mutateAsync(plan.id);
      notifySuccess(t('signagePlans:published'));
      setWatching(plan);
    } catch {
      // The refusal is already on screen.
    }
  };

  const columns = useTableColumns<AdPlanRow>('signagePlans', [
    { key: 'publishName', label: f('publishName'), always: true, cell: (p) => <OneLine fw={500}>{p.publishName}</OneLine> },
    {
      key: 'targets',
      label: f('targets'),
      cell: (p) =>
        p.publishMode === 'group'
          ? `${t('signagePlans:publishMode.group')}: ${p.groupName ?? '—'}`
          : `${t('signagePlans:publishMode.devices')}: ${p.deviceIds?.length ?? 0}`,
    },
    { key: 'adIds', label: f('adIds'), cell: (p) => <OneLine>{p.adNames.join(', ') || '—'}</OneLine> },
    { key: 'dateRange', label: f('dateRange'), cell: (p) => `${p.schedule.startDate} ~ ${p.schedule.endDate}` },
    {
      key: 'timeRange',
      label: f('timeRange'),
      cell: (p) => (p.schedule.allDay ? t('signagePlans:allDay') : `${p.schedule.startTime} ~ ${p.schedule.endTime}`),
    },
    { key: 'playMode', label: f('playMode'), hidden: true, cell: (p) => t(`signagePlans:playMode.${p.playMode}`) },
    { key: 'publishType', label: f('publishType'), cell: (p) => t(`signagePlans:publishType.${p.publishType}`) },
    {
      key: 'status',
      label: f('status'),
      cell: (p) => (
        <Badge color={STATUS_COLOR[p.status]} variant="light" data-testid="plan-status" data-status={p.status}>
          {t(`signagePlans:status.${p.status}`)}
        </Badge>
      ),
    },
    {
      key: 'timeStatus',
      label: f('timeStatus'),
      hidden: true,
      cell: (p) => <span data-testid="plan-time-status">{t(`signagePlans:timeStatus.${p.timeStatus}`)}</span>,
    },
    { key: 'publishedAt', label: f('publishedAt'), cell: (p) => (p.publishedAt ? parseTime(p.publishedAt) : '—') },
    { key: 'expiryDate', label: f('expiryDate'), cell: (p) => p.expiryDate },
    { key: 'createdBy', label: f('createdBy'), hidden: true, cell: (p) => p.createdBy },
  ]);

  return (
    <Stack gap="sm">
      <Group justify="flex-end">
        {canAdd && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ row: null })} data-testid="plan-add">
            {t('signagePlans:add')}
          </Button>
        )}
      </Group>
      <FilterBar {...filterBar} testId="plan">
        <NameFilter label={f('publishName')} maxLength={AD_PUBLISH_NAME_MAX} {...field('name')} testId="plan-name-filter" />
        <OptionFilter
          label={f('status')}
          placeholder={t('signagePlans:allStatuses')}
          options={Object.values(AdPlanStatus).map((s) => ({ value: s, label: t(`signagePlans:status.${s}`) }))}
          {...field('status')}
        />
        <DayField
          label={t('signagePlans:playsOn')}
          clearable
          value={draft.date ?? ''}
          onChange={(date) => setDraft({ ...draft, date: date || undefined })}
          w={{ base: '100%', sm: 180 }}
        />
      </FilterBar>
      <TableBox>
        <Table striped verticalSpacing={4} data-testid="plan-table">
          <ColumnHeads columns={columns} />
          <Table.Tbody>
            {rows.length === 0 && !plans.isLoading && <TableEmptyRow colSpan={columns.span() + 1} py="lg" />}
            {rows.map((plan) => (
              <Table.Tr key={plan.id} data-testid={`plan-row-${plan.publishName}`}>
                <ColumnCells columns={columns} row={plan} />
                <EditDeleteCell
                  canEdit={canEdit}
                  canDelete={canDelete}
                  onEdit={() => setEditing({ row: plan })}
                  onDelete={() =>
                    void deleteAfterConfirm(
                      t('signagePlans:deleteDetail', { name: plan.publishName }),
                      () => remove.mutateAsync(plan.id),
                      t('common:feedback.deleted'),
                    )
                  }
                  editLabel={t('signagePlans:edit')}
                  editTestId="plan-edit"
                  deleteTestId="plan-delete"
                >
                  {canPublish && (
                    <IconAction label={t('signagePlans:publish')} onClick={() => void publishPlan(plan)} testId="plan-publish">
                      <IconSend size={18} />
                    </IconAction>
                  )}
                  <IconAction label={t('signagePlans:receivers')} onClick={() => setWatching(plan)} testId="plan-receivers">
                    <IconListCheck size={18} />
                  </IconAction>
                </EditDeleteCell>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableBox>
      <TableFooter {...footer(plans.data?.total ?? 0)} />
      <Deferred when={editing !== null}>{editing && <PlanEditorModal plan={editing.row} onClose={() => setEditing(null)} />}</Deferred>
      <Deferred when={watching !== null}>
        {watching && (
          <PlanReceiversDrawer
            plan={watching}
            canRetry={canPublish}
            onPublish={canPublish ? () => void publishPlan(watching) : undefined}
            onClose={() => setWatching(null)}
          />
        )}
      </Deferred>
    </Stack>
  );
}
