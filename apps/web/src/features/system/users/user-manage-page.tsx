import { useEffect, useMemo, useState } from 'react';
import { ActionIcon, Avatar, Badge, Box, Button, Group, Switch, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { Select } from '@/components/select';
import { modals } from '@mantine/modals';
import { IconEdit, IconKey, IconPlus, IconUser } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Button as PermissionButton, type UserPageQuery, type UserRow } from '@sc/contracts';
import { useButton, useSession } from '@/auth/session-store';
import { FilterBar, PagePanel } from '@/components/page-panel';
import { TableFooter } from '@/components/table-footer';
import { notifySuccess } from '@/components/notify';
import { formatTime, parseTime } from '@/utils/format';
import { i18next } from '@/i18n';
import { dayEndIso, dayStartIso, today } from '../shared/date-fields';
import { DateRangeField } from '../shared/date-range-field';
import { PermissionBadges, RoleTypeBadge } from '../shared/permissions';
import { compact, paging } from '@/navigation/search-params';
import { TABLE_STYLES, TableStatusRow } from '../shared/table-states';
import { ColumnCells, ColumnHeads, OneLine, PinnedActionsCell, TableBox, useTableColumns } from '@/components/table-columns';
import { useGroups } from '../groups/api';
import { useUpdateUser, useUserPage } from './api';
import { USER_STATUSES, type UserSearch, type UserStatusFilter } from './search';
import { Deferred, lazyComponent } from '@/components/deferred';
import { useGroupOptions } from './group-options';

const UserFormModal = lazyComponent(() => import('./user-form-modal'), 'UserFormModal');
const ResetPasswordModal = lazyComponent(() => import('./reset-password-modal'), 'ResetPasswordModal');

const route = getRouteApi('/_auth/_shell/systemSetting/userManage');

interface Draft {
  username: string;
  groupId: string | null;
  status: string | null;
  loginFrom: string;
  loginTo: string;
}

const toDraft = (s: UserSearch): Draft => ({
  username: s.username ?? '',
  groupId: s.groupId ? String(s.groupId) : null,
  status: s.status ?? null,
  loginFrom: s.loginFrom ?? '',
  loginTo: s.loginTo ?? '',
});

function confirmDisable(name: string): Promise<boolean> {
  return new Promise((resolve) => {
    modals.openConfirmModal({
      title: i18next.t('system:users.confirmDisableTitle', { name }),
      children: <Text size="sm">{i18next.t('system:users.confirmDisableText')}</Text>,
      labels: { confirm: i18next.t('system:users.disable'), cancel: i18next.t('common:actions.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-disable' } as Record<string, string>,
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false),
    });
  });
}

/** System setting › User manage: filter, create, edit, enable or disable users and reset their passwords (administrators only). */
export function UserManagePage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const me = useSession((s) => s.name);
  const canAdd = useButton(PermissionButton.Add);
  const canEdit = useButton(PermissionButton.Edit);

  const { pageNum, pageSize } = paging(search);
  const query: UserPageQuery = {
    pageNum,
    pageSize,
    username: search.username,
    groupId: search.groupId,
    enabled: search.status ? search.status === 'enabled' : undefined,
    lastLoginFrom: dayStartIso(search.loginFrom),
    lastLoginTo: dayEndIso(search.loginTo),
  };
  const users = useUserPage(query);
  const groups = useGroups();
  const groupList = useMemo(() => groups.data ?? [], [groups.data]);
  const groupOptions = useGroupOptions(groupList);
  const toggle = useUpdateUser();

  const [draft, setDraft] = useState<Draft>(() => toDraft(search));
  // The address is the source of truth: back and forward put its filters back into the bar.
  useEffect(() => setDraft(toDraft(search)), [search]);

  const [form, setForm] = useState<{ opened: boolean; user: UserRow | null }>({ opened: false, user: null });
  const [reset, setReset] = useState<{ opened: boolean; user: UserRow | null }>({ opened: false, user: null });

  const total = users.data?.total ?? 0;
  const rows = users.data?.list ?? [];
  const filtered = Boolean(search.username || search.groupId || search.status || search.loginFrom || search.loginTo);

  // A page past the end (after filtering or on a stale link) moves to the last page that has rows.
  useEffect(() => {
    if (users.data && users.data.list.length === 0 && total > 0 && pageNum > 1) {
      void navigate({ search: (prev) => ({ ...prev, pageNum: Math.max(1, Math.ceil(total / pageSize)) }), replace: true });
    }
  }, [users.data, total, pageNum, pageSize, navigate]);

  const apply = () => {
    const next: UserSearch = compact({
      pageSize: search.pageSize,
      username: draft.username.trim() || undefined,
      groupId: draft.groupId ? Number(draft.groupId) : undefined,
      status: (draft.status as UserStatusFilter | null) ?? undefined,
      loginFrom: draft.loginFrom || undefined,
      loginTo: draft.loginTo || undefined,
    });
    if (JSON.stringify(next) === JSON.stringify(compact({ ...search, pageNum: undefined }))) void users.refetch();
    else void navigate({ search: next });
  };

  const clear = () => {
    setDraft(toDraft({}));
    void navigate({ search: compact({ pageSize: search.pageSize }) });
  };

  const setEnabled = async (user: UserRow, enabled: boolean) => {
    if (!enabled && !(await confirmDisable(user.username))) return;
    try {
      await toggle.mutateAsync({ id: user.id, enabled });
      notifySuccess(t(enabled ? 'system:users.enabledDone' : 'system:users.disabledDone', { name: user.username }));
    } catch {
      // The refusal is already on screen.
    }
  };

  const columns = useTableColumns<UserRow>('users', [
    {
      key: 'username',
      label: t('fields:username'),
      always: true,
      cell: (user) => {
        const self = user.username === me;
        return (
          <Group gap="sm" wrap="nowrap">
            <Avatar size={32} radius="xl" color="initials" name={user.username} />
            <Box miw={0}>
              <Group gap={6} wrap="nowrap">
                <Text size="sm" fw={600}>
                  {user.username}
                </Text>
                {self && (
                  <Badge size="xs" variant="light" radius="sm" tt="none" miw="max-content">
                    {t('system:users.youBadge')}
                  </Badge>
                )}
              </Group>
              {user.introduction && (
                <Text size="xs" c="dimmed" lineClamp={1} maw={220} title={user.introduction}>
                  {user.introduction}
                </Text>
              )}
            </Box>
          </Group>
        );
      },
    },
    { key: 'group', label: t('fields:groupName'), cell: (user) => <OneLine maw="10rem">{user.groupName}</OneLine> },
    { key: 'roleType', label: t('system:users.roleType'), cell: (user) => <RoleTypeBadge isAdmin={user.isAdmin === 1} /> },
    {
      key: 'permission',
      label: t('system:users.permission'),
      wrap: true,
      cell: (user) => <PermissionBadges isAdmin={user.isAdmin === 1} names={user.permission ?? []} />,
    },
    {
      key: 'status',
      label: t('system:users.status'),
      cell: (user) => {
        const self = user.username === me;
        const switching = toggle.isPending && toggle.variables?.id === user.id && toggle.variables.enabled !== undefined;
        return canEdit ? (
          <Tooltip label={t('system:users.selfHint')} disabled={!self} withArrow>
            <Group gap={8} wrap="nowrap">
              <Switch
                checked={user.enabled}
                onChange={(e) => void setEnabled(user, e.currentTarget.checked)}
                disabled={(self && user.enabled) || switching}
                color="teal"
                size="sm"
                aria-label={user.enabled ? t('system:users.disable') : t('system:users.enable')}
                data-testid="user-toggle"
              />
              <Text size="sm" c={user.enabled ? 'teal.7' : 'dimmed'} style={{ whiteSpace: 'nowrap' }}>
                {user.enabled ? t('system:shared.enabled') : t('system:shared.disabled')}
              </Text>
            </Group>
          </Tooltip>
        ) : (
          <Badge variant="light" color={user.enabled ? 'teal' : 'gray'} radius="sm" tt="none" miw="max-content">
            {user.enabled ? t('system:shared.enabled') : t('system:shared.disabled')}
          </Badge>
        );
      },
    },
    {
      key: 'lastLogin',
      label: t('system:users.lastLogin'),
      cell: (user) =>
        user.lastLoginDate ? (
          <Tooltip label={formatTime(user.lastLoginDate)} withArrow openDelay={300}>
            <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
              {parseTime(user.lastLoginDate)}
            </Text>
          </Tooltip>
        ) : (
          <Text size="sm" c="dimmed">
            {t('system:shared.never')}
          </Text>
        ),
    },
    { key: 'createdAt', label: t('system:shared.createdAt'), hidden: true, cell: (user) => parseTime(user.createdAt) },
  ]);

  const statusOptions = USER_STATUSES.map((value) => ({ value, label: t(`system:shared.${value}`) }));

  return (
    <PagePanel
      title={t('common:route.userManage')}
      actions={
        canAdd && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setForm({ opened: true, user: null })} data-testid="user-add">
            {t('system:users.add')}
          </Button>
        )
      }
    >
      <FilterBar onSubmit={apply} onReset={clear} testId="user">
        <TextInput
          label={t('fields:username')}
          placeholder={t('system:users.usernamePlaceholder')}
          leftSection={<IconUser size={16} />}
          value={draft.username}
          onChange={(e) => {
            const username = e.currentTarget.value;
            setDraft((d) => ({ ...d, username }));
          }}
          w={{ base: '100%', xs: 200 }}
          data-testid="user-filter-username"
        />
        <Select
          label={t('system:users.group')}
          placeholder={t('system:users.groupPlaceholder')}
          data={groupOptions}
          value={draft.groupId}
          onChange={(value) => setDraft((d) => ({ ...d, groupId: value }))}
          clearable
          searchable
          nothingFoundMessage={t('common:feedback.noData')}
          w={{ base: '100%', xs: 200 }}
          data-testid="user-filter-group"
        />
        <Select
          label={t('system:users.status')}
          placeholder={t('system:users.statusPlaceholder')}
          data={statusOptions}
          value={draft.status}
          onChange={(value) => setDraft((d) => ({ ...d, status: value }))}
          clearable
          w={{ base: '100%', xs: 150 }}
          data-testid="user-filter-status"
        />
        <DateRangeField
          label={t('system:users.lastLoginRange')}
          from={draft.loginFrom}
          to={draft.loginTo}
          max={today()}
          onChange={({ from, to }) => setDraft((d) => ({ ...d, loginFrom: from, loginTo: to }))}
          testId="user-filter-login"
        />
      </FilterBar>

      <TableBox>
        <Table striped highlightOnHover verticalSpacing="sm" styles={TABLE_STYLES} data-testid="user-table">
          <ColumnHeads columns={columns} actions={canEdit} />
          <Table.Tbody style={{ opacity: users.isPlaceholderData ? 0.6 : 1, transition: 'opacity 120ms' }}>
            <TableStatusRow
              colSpan={columns.span()}
              loading={users.isPending}
              failed={users.isError && rows.length === 0}
              empty={users.isSuccess && rows.length === 0}
              filtered={filtered}
              onRetry={() => void users.refetch()}
            />
            {rows.map((user) => (
              <Table.Tr key={user.id} data-testid={`user-row-${user.username}`}>
                <ColumnCells columns={columns} row={user} />
                <PinnedActionsCell>
                  {canEdit && (
                    <>
                      <Tooltip label={t('common:actions.edit')}>
                        <ActionIcon
                          variant="subtle"
                          onClick={() => setForm({ opened: true, user })}
                          aria-label={t('common:actions.edit')}
                          data-testid="user-edit"
                        >
                          <IconEdit size={18} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label={t('system:users.resetPassword')}>
                        <ActionIcon
                          variant="subtle"
                          color="orange"
                          onClick={() => setReset({ opened: true, user })}
                          aria-label={t('system:users.resetPassword')}
                          data-testid="user-reset-password"
                        >
                          <IconKey size={18} />
                        </ActionIcon>
                      </Tooltip>
                    </>
                  )}
                </PinnedActionsCell>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableBox>

      <TableFooter
        total={total}
        pageNum={pageNum}
        pageSize={pageSize}
        onChange={(page) =>
          void navigate({ search: (prev) => compact({ ...prev, pageNum: page.pageNum > 1 ? page.pageNum : undefined, pageSize: page.pageSize }) })
        }
      />

      <Deferred when={form.opened}>
        <UserFormModal
          opened={form.opened}
          user={form.user}
          groups={groupList}
          groupsLoading={groups.isPending}
          onClose={() => setForm((f) => ({ ...f, opened: false }))}
        />
      </Deferred>
      <Deferred when={reset.opened}>
        <ResetPasswordModal opened={reset.opened} user={reset.user} onClose={() => setReset((r) => ({ ...r, opened: false }))} />
      </Deferred>
    </PagePanel>
  );
}
