import { useState } from 'react';
import { Badge, Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link, getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, type BroadcastGroupRow } from '@sc/contracts';
import { useButton } from '@/auth/session-store';
import { DeviceListFilters } from '@/components/device-list';
import { PagePanel } from '@/components/page-panel';
import { RecordTable } from '@/components/record-table';
import { OneLine, useTableColumns } from '@/components/table-columns';
import { TableFooter } from '@/components/table-footer';
import { useRegionLabel } from '@/features/region/area-tree';
import { compact, paging } from '@/navigation/search-params';
import { parseTime } from '@/utils/format';
import { useBroadcastGroupPage, useDeleteBroadcastGroup } from './groups-api';

const route = getRouteApi('/_auth/_shell/broadcastManage/groupManagement');

/** /broadcastManage/groupManagement: the broadcast groups by name and region, with their terminal counts. */
export function GroupManagePage() {
  const { t } = useTranslation();
  const regionLabel = useRegionLabel();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { pageNum, pageSize } = paging(search);
  const groups = useBroadcastGroupPage({ groupName: search.groupName, regionId: search.regionId, pageNum, pageSize });
  const remove = useDeleteBroadcastGroup();
  const canAdd = useButton(ButtonPermission.Add);
  const canEdit = useButton(ButtonPermission.Edit);
  const canDelete = useButton(ButtonPermission.Delete);
  const [draft, setDraft] = useState(search);
  const rows = groups.data?.list ?? [];
  const columns = useTableColumns<BroadcastGroupRow>('broadcast-groups', [
    {
      key: 'name',
      label: t('broadcastGroups:fields.groupName'),
      always: true,
      cell: (group) => (
        <>
          <OneLine fw={500}>{group.groupName}</OneLine>
          {group.remark && (
            <OneLine size="xs" c="dimmed">
              {group.remark}
            </OneLine>
          )}
        </>
      ),
    },
    { key: 'region', label: t('broadcastGroups:fields.region'), cell: (group) => <OneLine maw="10rem">{regionLabel(group)}</OneLine> },
    {
      key: 'members',
      label: t('broadcastGroups:fields.memberCount'),
      align: 'right',
      cell: (group) => (
        <Badge variant="light" color={group.memberCount > 0 ? 'blue' : 'gray'} data-testid="group-member-count">
          {group.memberCount}
        </Badge>
      ),
    },
    { key: 'updatedAt', label: t('broadcastGroups:fields.updatedAt'), hidden: true, cell: (group) => parseTime(group.updatedAt) },
  ]);

  return (
    <PagePanel
      title={t('common:route.groupManagement')}
      actions={
        canAdd && (
          <Button component={Link} to="/broadcastManage/groupManagementCreate" leftSection={<IconPlus size={16} />} data-testid="group-add">
            {t('broadcastGroups:add')}
          </Button>
        )
      }
    >
      <DeviceListFilters
        testId="group"
        nameKey="groupName"
        nameLabel={t('broadcastGroups:fields.groupName')}
        regionLabel={t('broadcastGroups:fields.region')}
        draft={draft}
        setDraft={setDraft}
        apply={(next) => void navigate({ search: compact({ ...next, pageNum: undefined, pageSize: search.pageSize }) })}
      />
      <RecordTable
        testId="group"
        columns={columns}
        rows={rows}
        loading={groups.isLoading}
        emptyText={t('broadcastGroups:empty')}
        rowKey={(group) => group.groupName}
        canEdit={canEdit}
        canDelete={canDelete}
        editLabel={t('broadcastGroups:edit')}
        onEdit={(group) => void navigate({ to: '/broadcastManage/groupManagementEdit', search: { id: group.id } })}
        deleteText={(group) => t('broadcastGroups:deleteDetail', { name: group.groupName })}
        remove={(group) => remove.mutateAsync(group.id)}
      />
      <TableFooter
        total={groups.data?.total ?? 0}
        pageNum={pageNum}
        pageSize={pageSize}
        onChange={(page) => void navigate({ search: { ...search, ...page } })}
      />
    </PagePanel>
  );
}
