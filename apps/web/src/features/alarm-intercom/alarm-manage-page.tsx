import { Suspense, lazy } from 'react';
import { SegmentedControl } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { PagePanel } from '@/components/page-panel';
import { compact } from '@/navigation/search-params';
import type { AlarmManageView } from './search';

// Each view is a chunk of its own: the page downloads the one it shows.
const AlarmColumnsPage = lazy(() => import('@/features/alarm-columns/alarm-columns-page').then((m) => ({ default: m.AlarmColumnsPage })));
const IncidentsView = lazy(() => import('./incidents-view').then((m) => ({ default: m.IncidentsView })));
const route = getRouteApi('/_auth/_shell/alarmManage/alarmManage');

/** /alarmManage/alarmManage: the alarm columns, or the incidents their presses opened (a switch above either). */
export function AlarmManagePage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const view: AlarmManageView = search.view ?? 'columns';
  const switcher = (
    <SegmentedControl
      value={view}
      onChange={(next) => void navigate({ search: next === 'incidents' ? { view: 'incidents' } : {} })}
      data={[
        { value: 'columns', label: t('alarmIntercom:views.columns') },
        { value: 'incidents', label: t('alarmIntercom:views.incidents') },
      ]}
      aria-label={t('common:route.alarmManage')}
      data-testid="alarm-view"
    />
  );
  if (view === 'columns')
    return (
      <Suspense fallback={null}>
        <AlarmColumnsPage switcher={switcher} />
      </Suspense>
    );
  return (
    <PagePanel title={t('alarmIntercom:incidents.title')} actions={switcher}>
      <Suspense fallback={null}>
        <IncidentsView
          search={search}
          onSearch={(next) => void navigate({ search: compact({ ...next, view: 'incidents' as const }), resetScroll: false })}
        />
      </Suspense>
    </PagePanel>
  );
}
