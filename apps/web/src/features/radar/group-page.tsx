import { useState } from 'react';
import { Badge, Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link, getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, type RadarGroupRow } from '@sc/contracts';
import { useButton } from '@/auth/session-store';
import { DeviceListFilters } from '@/components/device-list';
import { PagePanel } from '@/components/page-panel';
import { RecordTable } from '@/components/record-table';
import { OneLine, useTableColumns } from '@/components/table-columns';
import { TableFooter } from '@/components/table-footer';
import { compact, paging } from '@/navigation/search-params';
import { useDeleteRadarGroup, useRadarGroupPage } from './api';

const route = getRouteApi('/_auth/_shell/radarManage/radarGroupManagement');

/** /radarManage/radarGroupManagement: the radar groups with their radars, lamps and strategy; created and edited on their own pages. */
export function RadarGroupPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { pageNum, pageSize } = paging(search);
  const groups = useRadarGroupPage({ name: search.name, pageNum, pageSize });
  const remove = useDeleteRadarGroup();
  const canAdd = useButton(ButtonPermission.Add);
  const canEdit = useButton(ButtonPermission.Edit);
  const canDelete = useButton(ButtonPermission.Delete);
  const [draft, setDraft] = useState(search);
  const rows = groups.data?.list ?? [];
  const count = (n: number, testId: string) => (
    <Badge variant="light" color={n > 0 ? 'blue' : 'gray'} data-testid={testId}>
      {n}
    </Badge>
  );
  const columns = useTableColumns<RadarGroupRow>('radar-groups', [
    {
      key: 'name',
      label: t('radar:fields.groupName'),
      always: true,
      cell: (group) => (
        <>
          <OneLine fw={500}>{group.name}</OneLine>
          {group.remark && (
            <OneLine size="xs" c="dimmed">
              {group.remark}
            </OneLine>
          )}
        </>
      ),
    },
    { key: 'radars', label: t('radar:fields.radarCount'), align: 'right', cell: (group) => count(group.radarCount, 'radar-group-radars') },
    { key: 'lamps', label: t('radar:fields.lampCount'), align: 'right', cell: (group) => count(group.lampCount, 'radar-group-lamps') },
    { key: 'strategy', label: t('radar:fields.strategy'), cell: (group) => group.strategyName ?? t('radar:groups.noStrategy') },
  ]);

  return (
    <PagePanel
      title={t('common:route.radarGroupManagement')}
      actions={
        canAdd && (
          <Button component={Link} to="/radarManage/radarCreateGroup" leftSection={<IconPlus size={16} />} data-testid="radar-group-add">
            {t('radar:groups.add')}
          </Button>
        )
      }
    >
      <DeviceListFilters
        testId="radar-group"
        nameKey="name"
        nameLabel={t('radar:fields.groupName')}
        draft={draft}
        setDraft={setDraft}
        apply={(next) => void navigate({ search: compact({ ...next, pageNum: undefined, pageSize: search.pageSize }) })}
      />
      <RecordTable
        testId="radar-group"
        columns={columns}
        rows={rows}
        loading={groups.isLoading}
        emptyText={t('radar:groups.empty')}
        rowKey={(group) => group.name}
        canEdit={canEdit}
        canDelete={canDelete}
        editLabel={t('radar:groups.edit')}
        onEdit={(group) => void navigate({ to: '/radarManage/radarEditGroup', search: { id: group.id } })}
        deleteText={(group) => t('radar:groups.deleteDetail', { name: group.name })}
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
