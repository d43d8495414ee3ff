import { Suspense, lazy, useEffect, useMemo, useState } from 'react';
import { ActionIcon, Badge, Button, Group, Table, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ALARM_GROUP_NAME_MAX, AccountStatus, AgentMode, Button as ButtonPermission, type AlarmUserGroupRow } from '@sc/contracts';
import { useButton } from '@/auth/session-store';
import { NameFilter } from '@/components/filter-fields';
import { notifySuccess } from '@/components/notify';
import { FilterBar, PagePanel } from '@/components/page-panel';
import { TableFooter } from '@/components/table-footer';
import { TABLE_STYLES, TableStatusRow } from '@/features/system/shared/table-states';
import { compact, paging } from '@/navigation/search-params';
import { useDeleteGroup, useGroupPage, useLiveAgentModes } from './api';

// The form loads when it opens (the list does not need it to show).
const GroupFormModal = lazy(() => import('./group-form-modal').then((m) => ({ default: m.GroupFormModal })));

const route = getRouteApi('/_auth/_shell/alarmManage/userGroupManagement');

const MODE_COLOR: Record<AgentMode, string> = { IDLE: 'green', BUSY: 'orange', OFFLINE: 'gray' };

/**
 * /alarmManage/userGroupManagement: the user groups whose agents take the alarm columns' calls, each agent's mode live
 * (AgentModeChanged); add, edit (the whole list of agents) and delete.
 */
export function UserGroupsPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { pageNum, pageSize } = paging(search);
  useLiveAgentModes();
  const page = useGroupPage(compact({ pageNum, pageSize, name: search.name }));
  const rows = useMemo(() => page.data?.list ?? [], [page.data]);
  const remove = useDeleteGroup();
  const mayAdd = useButton(ButtonPermission.Add);
  const mayEdit = useButton(ButtonPermission.Edit);
  const mayDelete = useButton(ButtonPermission.Delete);
  const [name, setName] = useState(search.name);
  useEffect(() => setName(search.name), [search.name]);
  const [editing, setEditing] = useState<AlarmUserGroupRow | null | undefined>(undefined);

  const confirmDelete = (group: AlarmUserGroupRow) =>
    modals.openConfirmModal({
      title: t('alarmIntercom:groups.title'),
      children: <Text size="sm">{t('alarmIntercom:groups.delete', { name: group.name })}</Text>,
      labels: { confirm: t('common:actions.delete'), cancel: t('common:actions.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'group-delete-confirm' } as Record<string, string>,
      onConfirm: () => remove.mutate(group.id, { onSuccess: () => notifySuccess(t('alarmIntercom:groups.deleted')) }),
    });

  return (
    <PagePanel
      title={t('common:route.userGroupManagement')}
      actions={
        mayAdd && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)} data-testid="group-add">
            {t('alarmIntercom:groups.add')}
          </Button>
        )
      }
    >
      <FilterBar
        testId="group"
        onSubmit={() => void navigate({ search: compact({ pageSize: search.pageSize, name: name?.trim() || undefined }) })}
        onReset={() => void navigate({ search: compact({ pageSize: search.pageSize }) })}
      >
        <NameFilter
          label={t('alarmIntercom:fields.name')}
          value={name}
          onChange={setName}
          maxLength={ALARM_GROUP_NAME_MAX}
          testId="group-filter-name"
        />
      </FilterBar>
      <Table.ScrollContainer minWidth={640}>
        <Table striped verticalSpacing="sm" styles={TABLE_STYLES} data-testid="group-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('alarmIntercom:fields.name')}</Table.Th>
              <Table.Th>{t('alarmIntercom:fields.region')}</Table.Th>
              <Table.Th>{t('alarmIntercom:fields.agents')}</Table.Th>
              <Table.Th>{t('alarmIntercom:fields.remark')}</Table.Th>
              <Table.Th w={90} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody style={{ opacity: page.isPlaceholderData ? 0.6 : 1 }}>
            <TableStatusRow
              colSpan={5}
              loading={page.isPending}
              failed={page.isError && rows.length === 0}
              empty={page.isSuccess && rows.length === 0}
              filtered={Boolean(search.name)}
              onRetry={() => void page.refetch()}
            />
            {rows.map((group) => (
              <Table.Tr key={group.id} data-testid={`group-row-${group.name}`}>
                <Table.Td fw={500}>{group.name}</Table.Td>
                <Table.Td>{group.regionName ?? t('alarmIntercom:groups.anyRegion')}</Table.Td>
                <Table.Td>
                  <Group gap={6}>
                    {group.agents.length === 0 && (
                      <Text size="sm" c="dimmed">
                        {t('alarmIntercom:groups.noAgents')}
                      </Text>
                    )}
                    {group.agents.map((agent) => (
                      <Tooltip
                        key={agent.userId}
                        label={`${agent.protocol} ${agent.sipAccount || '—'} · ${t(`alarmIntercom:accountStatus.${agent.accountStatus}`)}`}
                      >
                        <Badge
                          variant="light"
                          color={agent.accountStatus === AccountStatus.Suspended ? 'dark' : MODE_COLOR[agent.mode]}
                          data-testid={`agent-${agent.username}`}
                          data-mode={agent.mode}
                        >
                          {agent.username} · {t(`alarmIntercom:mode.${agent.mode}`)}
                        </Badge>
                      </Tooltip>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c="dimmed" lineClamp={2}>
                    {group.remark}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    {mayEdit && (
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('alarmIntercom:groups.edit')}
                        onClick={() => setEditing(group)}
                        data-testid="group-edit"
                      >
                        <IconEdit size={16} />
                      </ActionIcon>
                    )}
                    {mayDelete && (
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('common:actions.delete')}
                        onClick={() => confirmDelete(group)}
                        data-testid="group-delete"
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <TableFooter
        total={page.data?.total ?? 0}
        pageNum={pageNum}
        pageSize={pageSize}
        onChange={(next) => void navigate({ search: { ...search, ...next } })}
      />
      {editing !== undefined && (
        <Suspense fallback={null}>
          <GroupFormModal group={editing} onClose={() => setEditing(undefined)} />
        </Suspense>
      )}
    </PagePanel>
  );
}
