import { Suspense, lazy, useState } from 'react';
import { Badge, Button, Group } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, type RadarStrategyRow } from '@sc/contracts';
import { useButton } from '@/auth/session-store';
import { DeviceListFilters } from '@/components/device-list';
import { useFormDialog } from '@/components/form-actions';
import { PagePanel } from '@/components/page-panel';
import { RecordTable } from '@/components/record-table';
import { OneLine, useTableColumns } from '@/components/table-columns';
import { TableFooter } from '@/components/table-footer';
import { compact, paging } from '@/navigation/search-params';
import { useDeleteRadarStrategy, useRadarStrategyPage } from './api';

const RadarStrategyFormModal = lazy(() => import('./strategy-form-modal').then((m) => ({ default: m.RadarStrategyFormModal })));

const route = getRouteApi('/_auth/_shell/radarManage/radarStrategyManagement');

/** /radarManage/radarStrategyManagement: the strategies, each its events bound to one radar group. */
export function RadarStrategyPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { pageNum, pageSize } = paging(search);
  const strategies = useRadarStrategyPage({ name: search.name, pageNum, pageSize });
  const remove = useDeleteRadarStrategy();
  const canAdd = useButton(ButtonPermission.Add);
  const canEdit = useButton(ButtonPermission.Edit);
  const canDelete = useButton(ButtonPermission.Delete);
  const dialog = useFormDialog<RadarStrategyRow>();
  const [draft, setDraft] = useState(search);
  const rows = strategies.data?.list ?? [];
  const columns = useTableColumns<RadarStrategyRow>('radar-strategies', [
    { key: 'name', label: t('radar:fields.strategyName'), always: true, cell: (s) => <OneLine fw={500}>{s.name}</OneLine> },
    { key: 'group', label: t('radar:fields.groupId'), cell: (s) => s.groupName },
    {
      key: 'events',
      label: t('radar:fields.radarEventInfos'),
      cell: (s) => (
        <Group gap={4}>
          {s.radarEventInfos.map((e) => (
            <Badge key={e.uniqueIndex} variant="light" data-testid="radar-strategy-event-badge">
              {t('radar:strategies.summary', {
                event: t(`radar:event.${e.event}`),
                brightness: e.brightness,
                open: e.openInterval,
                close: e.closeInterval,
              })}
            </Badge>
          ))}
        </Group>
      ),
    },
  ]);

  return (
    <PagePanel
      title={t('common:route.radarStrategyManagement')}
      actions={
        canAdd && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => dialog.open(null)} data-testid="radar-strategy-add">
            {t('radar:strategies.add')}
          </Button>
        )
      }
    >
      <DeviceListFilters
        testId="radar-strategy"
        nameKey="name"
        nameLabel={t('radar:fields.strategyName')}
        draft={draft}
        setDraft={setDraft}
        apply={(next) => void navigate({ search: compact({ ...next, pageNum: undefined, pageSize: search.pageSize }) })}
      />
      <RecordTable
        testId="radar-strategy"
        columns={columns}
        rows={rows}
        loading={strategies.isLoading}
        emptyText={t('radar:strategies.empty')}
        rowKey={(strategy) => strategy.name}
        canEdit={canEdit}
        canDelete={canDelete}
        editLabel={t('radar:strategies.edit')}
        onEdit={(strategy) => dialog.open(strategy)}
        deleteText={(strategy) => t('radar:strategies.deleteDetail', { name: strategy.name })}
        remove={(strategy) => remove.mutateAsync(strategy.id)}
      />
      <TableFooter
        total={strategies.data?.total ?? 0}
        pageNum={pageNum}
        pageSize={pageSize}
        onChange={(page) => void navigate({ search: { ...search, ...page } })}
      />
      <Suspense fallback={null}>
        {dialog.opened && <RadarStrategyFormModal opened={dialog.opened} strategy={dialog.row} onClose={dialog.close} />}
      </Suspense>
    </PagePanel>
  );
}
