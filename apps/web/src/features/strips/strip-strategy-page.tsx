import { Suspense, lazy } from 'react';
import { Grid, Stack } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { DeviceFamily } from '@sc/contracts';
import { PagePanel } from '@/components/page-panel';
import { paging } from '@/navigation/search-params';
import { DispatchPanel } from '@/features/dispatch/dispatch-panel';
import { StrategyAddButton, StrategyTable, useStrategyDialogs } from '@/features/strategy/strategy-table';
import { useDeleteStripStrategy, useStripStrategyPage } from './api';
import { describeStripDispatch } from './strip-dispatch';

// The dialogs load when first opened, keeping the page's first load small.
const StrategyFormModal = lazy(() => import('@/features/strategy/strategy-form-modal').then((m) => ({ default: m.StrategyFormModal })));
const StripDistributeModal = lazy(() => import('./strip-distribute-modal').then((m) => ({ default: m.StripDistributeModal })));

const route = getRouteApi('/_auth/_shell/smartLamp/lightStrategy');

/**
 * /smartLamp/lightStrategy: strip light strategies on the lamp strategies' engine (same modes, periods and checks),
 * distributed to strip lights or a region through the ledger and followed live.
 */
export function StripStrategyPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { pageNum, pageSize } = paging(search);
  const strategies = useStripStrategyPage({ pageNum, pageSize });
  const remove = useDeleteStripStrategy();
  // Dispatch progress events, for the panel.

  const dialogs = useStrategyDialogs(
    remove,
    (dispatchId) => void navigate({ search: { ...search, dispatch: dispatchId }, replace: true, resetScroll: false }),
  );
  const { editing, setEditing, distributing, setDistributing } = dialogs;

  return (
    <PagePanel title={t('common:route.lightStrategy')} actions={<StrategyAddButton dialogs={dialogs} testId="strip-strategy-add" />}>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Stack gap="sm">
            <StrategyTable
              data={strategies.data}
              dialogs={dialogs}
              pageNum={pageNum}
              pageSize={pageSize}
              onPage={(page) => void navigate({ search: { ...search, ...page } })}
              testId="strip-strategy"
              distributeLabel={t('strip:strategy.distribute')}
              devicesHeader={t('strip:strategy.strips')}
              devicesTd={{ 'data-testid': 'strip-strategy-count' }}
              devicesCell={(row) => t('strip:strategy.count', { count: row.deviceCount })}
            />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <DispatchPanel family={DeviceFamily.Strip} dispatchId={search.dispatch ?? null} describe={describeStripDispatch} />
        </Grid.Col>
      </Grid>
      <Suspense fallback={null}>
        {editing !== null && <StrategyFormModal opened family="strip" strategy={editing.row} onClose={() => setEditing(null)} />}
        {distributing !== null && (
          <StripDistributeModal strategy={distributing} onClose={() => setDistributing(null)} onDistributed={dialogs.distributed} />
        )}
      </Suspense>
    </PagePanel>
  );
}
