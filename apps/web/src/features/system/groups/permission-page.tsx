import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Badge, Button, Group, HoverCard, SegmentedControl, Stack, Table, Text, TextInput, useMatches } from '@mantine/core';
import { IconEdit, IconPlus, IconSearch, IconShieldLock, IconTrash, IconUsers, IconUsersGroup } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ALL_BUTTONS, Button as PermissionButton, type Button as ButtonName, type GroupRow, type PermissionMenuItem } from '@sc/contracts';
import { useButton } from '@/auth/session-store';
import { confirmDelete } from '@/components/confirm';
import { notifySuccess } from '@/components/notify';
import { FilterBar, PagePanel } from '@/components/page-panel';
import { TableFooter } from '@/components/table-footer';
import { parseTime } from '@/utils/format';
import { PermissionBadges, RoleTypeBadge, useButtonLabel } from '../shared/permissions';
import { compact, paging } from '@/navigation/search-params';
import { TABLE_STYLES, TableStatusRow } from '../shared/table-states';
import { ColumnCells, ColumnHeads, OneLine, PinnedActionsCell, TableBox, useTableColumns } from '@/components/table-columns';
import { useDeleteGroup, useGroups, usePermissionMenu } from './api';
import { Deferred, lazyComponent } from '@/components/deferred';

const GroupFormModal = lazyComponent(() => import('./group-form-modal'), 'GroupFormModal');
import type { RoleTab } from './search';

const route = getRouteApi('/_auth/_shell/systemSetting/permission');

/** Buttons a group grants: all for administrators, otherwise those of its permissions (View at least). */
function grantedButtons(group: GroupRow, menu: readonly PermissionMenuItem[]): ButtonName[] {
  if (group.isAdmin === 1) return [...ALL_BUTTONS];
  const granted = new Set<ButtonName>();
  for (const item of menu) if (group.permissionMenu.includes(item.name)) for (const b of item.buttons) granted.add(b);
  if (granted.size === 0) granted.add(PermissionButton.View);
  return ALL_BUTTONS.filter((b) => granted.has(b));
}

function ButtonsCell({ buttons }: { buttons: ButtonName[] }) {
  const { t } = useTranslation();
  const label = useButtonLabel();
  return (
    <HoverCard width={320} shadow="md" withArrow openDelay={150} position="bottom-start">
      <HoverCard.Target>
        <Badge variant="outline" color="gray" radius="sm" tt="none" fw={500} miw="max-content" style={{ cursor: 'help' }} data-testid="group-buttons">
          {`${buttons.length} / ${ALL_BUTTONS.length}`}
        </Badge>
      </HoverCard.Target>
      <HoverCard.Dropdown>
        <Stack gap={6}>
          <Text size="xs" fw={600} c="dimmed">
            {t('system:groups.grantedButtons')}
          </Text>
          <Group gap={4}>
            {buttons.map((b) => (
              <Badge key={b} size="sm" variant="light" radius="sm" tt="none" fw={500}>
                {label(b)}
              </Badge>
            ))}
          </Group>
        </Stack>
      </HoverCard.Dropdown>
    </HoverCard>
  );
}

/** System setting › Roles & permissions: administrator and general roles, their permission menus and members (administrators only). */
export function PermissionPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const canAdd = useButton(PermissionButton.Add);
  const canEdit = useButton(PermissionButton.Edit);
  const canDelete = useButton(PermissionButton.Delete);

  const tab: RoleTab = search.tab ?? 'general';
  const { pageNum, pageSize } = paging(search);
  const groups = useGroups(search.groupName);
  const menu = usePermissionMenu();
  const remove = useDeleteGroup();

  const [name, setName] = useState(search.groupName ?? '');
  useEffect(() => setName(search.groupName ?? ''), [search.groupName]);
  const [form, setForm] = useState<{ opened: boolean; group: GroupRow | null }>({ opened: false, group: null });
  // On a phone the two tabs stand one above the other: side by side they are wider than the screen in Spanish.
  const tabsOrientation = useMatches<'vertical' | 'horizontal'>({ base: 'vertical', xs: 'horizontal' });

  const all = useMemo(() => groups.data ?? [], [groups.data]);
  const counts = { admin: all.filter((g) => g.isAdmin === 1).length, general: all.filter((g) => g.isAdmin !== 1).length };
  const inTab = all.filter((g) => (tab === 'admin' ? g.isAdmin === 1 : g.isAdmin !== 1));
  const lastPage = Math.max(1, Math.ceil(inTab.length / pageSize));
  const page = Math.min(pageNum, lastPage);
  const rows = inTab.slice((page - 1) * pageSize, page * pageSize);
  const columns = useTableColumns<GroupRow>('groups', [
    {
      key: 'name',
      label: t('fields:groupName'),
      always: true,
      cell: (group) => (
        <>
          <OneLine fw={600}>{group.groupName}</OneLine>
          {group.remark && (
            <OneLine size="xs" c="dimmed">
              {group.remark}
            </OneLine>
          )}
        </>
      ),
    },
    { key: 'isAdmin', label: t('fields:isAdmin'), cell: (group) => <RoleTypeBadge isAdmin={group.isAdmin === 1} /> },
    {
      key: 'menus',
      label: t('fields:permissionMenu'),
      wrap: true,
      cell: (group) => <PermissionBadges isAdmin={group.isAdmin === 1} names={group.permissionMenu} />,
    },
    { key: 'buttons', label: t('system:groups.grantedButtons'), cell: (group) => <ButtonsCell buttons={grantedButtons(group, menu.data ?? [])} /> },
    {
      key: 'users',
      label: t('system:groups.userCount'),
      cell: (group) => (
        <Group gap={6} wrap="nowrap">
          <IconUsers size={14} color="var(--mantine-color-dimmed)" />
          <Text size="sm" data-testid="group-user-count">
            {group.userCount}
          </Text>
        </Group>
      ),
    },
    { key: 'createdAt', label: t('system:shared.createdAt'), hidden: true, cell: (group) => parseTime(group.createdAt) },
  ]);

  const apply = () => {
    const groupName = name.trim() || undefined;
    if (groupName === search.groupName) void groups.refetch();
    else void navigate({ search: (prev) => compact({ ...prev, groupName, pageNum: undefined }) });
  };

  const onDelete = async (group: GroupRow) => {
    if (!(await confirmDelete(t('system:groups.deleteDetail', { name: group.groupName })))) return;
    try {
      await remove.mutateAsync(group.id);
      notifySuccess(t('common:feedback.deleted'));
    } catch {
      // The server's reason (for example, the group still has users) is already on screen.
    }
  };

  const tabLabel = (key: RoleTab, icon: ReactNode) => (
    <Group gap={6} wrap="nowrap" justify="center">
      {icon}
      <span>{key === 'admin' ? t('system:groups.adminRoles') : t('system:groups.generalRoles')}</span>
      <Badge size="xs" variant="light" color={key === 'admin' ? 'grape' : 'blue'} radius="sm">
        {counts[key]}
      </Badge>
    </Group>
  );

  return (
    <PagePanel
      title={t('common:route.permission')}
      actions={
        canAdd && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setForm({ opened: true, group: null })} data-testid="group-add">
            {t('system:groups.add')}
          </Button>
        )
      }
    >
      <Group justify="space-between" align="flex-end" gap="sm" wrap="wrap">
        <Stack gap={6} maw="100%">
          <SegmentedControl
            orientation={tabsOrientation}
            fullWidth={tabsOrientation === 'vertical'}
            value={tab}
            onChange={(value) =>
              void navigate({ search: (prev) => compact({ ...prev, tab: value === 'general' ? undefined : (value as RoleTab), pageNum: undefined }) })
            }
            data={[
              { value: 'general', label: tabLabel('general', <IconUsersGroup size={16} />) },
              { value: 'admin', label: tabLabel('admin', <IconShieldLock size={16} />) },
            ]}
            data-testid="group-tab"
          />
          <Text size="xs" c="dimmed">
            {tab === 'admin' ? t('system:groups.adminHint') : t('system:groups.generalHint')}
          </Text>
        </Stack>
        <FilterBar
          onSubmit={apply}
          onReset={() => {
            setName('');
            void navigate({ search: (prev) => compact({ ...prev, groupName: undefined, pageNum: undefined }) });
          }}
          testId="group"
        >
          <TextInput
            placeholder={t('system:groups.namePlaceholder')}
            aria-label={t('fields:groupName')}
            leftSection={<IconSearch size={16} />}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            w={{ base: '100%', xs: 220 }}
            data-testid="group-filter-name"
          />
        </FilterBar>
      </Group>

      <TableBox>
        <Table striped highlightOnHover verticalSpacing="sm" styles={TABLE_STYLES} data-testid="group-table">
          <ColumnHeads columns={columns} actions={canEdit || canDelete} />
          <Table.Tbody style={{ opacity: groups.isPlaceholderData ? 0.6 : 1, transition: 'opacity 120ms' }}>
            <TableStatusRow
              colSpan={columns.span()}
              loading={groups.isPending}
              failed={groups.isError && rows.length === 0}
              empty={groups.isSuccess && rows.length === 0}
              filtered={Boolean(search.groupName)}
              onRetry={() => void groups.refetch()}
            />
            {rows.map((group) => (
              <Table.Tr key={group.id} data-testid={`group-row-${group.groupName}`}>
                <ColumnCells columns={columns} row={group} />
                <PinnedActionsCell>
                  {canEdit && (
                    <Button
                      variant="subtle"
                      size="compact-sm"
                      leftSection={<IconEdit size={14} />}
                      onClick={() => setForm({ opened: true, group })}
                      data-testid="group-edit"
                    >
                      {t('common:actions.edit')}
                    </Button>
                  )}
                  {canDelete && (
                    <Button
                      variant="subtle"
                      color="red"
                      size="compact-sm"
                      leftSection={<IconTrash size={14} />}
                      loading={remove.isPending && remove.variables === group.id}
                      onClick={() => void onDelete(group)}
                      data-testid="group-delete"
                    >
                      {t('common:actions.delete')}
                    </Button>
                  )}
                </PinnedActionsCell>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableBox>

      <TableFooter
        total={inTab.length}
        pageNum={page}
        pageSize={pageSize}
        onChange={(next) =>
          void navigate({ search: (prev) => compact({ ...prev, pageNum: next.pageNum > 1 ? next.pageNum : undefined, pageSize: next.pageSize }) })
        }
      />

      <Deferred when={form.opened}>
        <GroupFormModal
          opened={form.opened}
          group={form.group}
          defaultAdmin={tab === 'admin'}
          onClose={() => setForm((f) => ({ ...f, opened: false }))}
          onSaved={(isAdmin) => {
            const saved: RoleTab = isAdmin ? 'admin' : 'general';
            if (saved !== tab)
              void navigate({ search: (prev) => compact({ ...prev, tab: saved === 'general' ? undefined : saved, pageNum: undefined }) });
          }}
        />
      </Deferred>
    </PagePanel>
  );
}
