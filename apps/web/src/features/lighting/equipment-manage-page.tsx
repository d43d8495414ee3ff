import { lazy, Suspense } from 'react';
import { Badge, Group, Loader, Tabs, Tooltip } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { PagePanel } from '@/components/page-panel';
import { useLiveLamps } from './api';
import { LampsTab } from './lamps-tab';
import { EQUIPMENT_TABS, type EquipmentTab, type LampSearch } from './search';

const route = getRouteApi('/_auth/_shell/smartLamp/equipmentManage');

// The single lamps tab opens first; the other tabs (and their forms) load when first chosen.
const GatewaysTab = lazy(() => import('./gateways-tab').then((m) => ({ default: m.GatewaysTab })));
const LoopsTab = lazy(() => import('./loops-tab').then((m) => ({ default: m.LoopsTab })));
const GroupsTab = lazy(() => import('./groups-tab').then((m) => ({ default: m.GroupsTab })));

/** /smartLamp/equipmentManage: gateways, loops, single lamps and their groups, live. */
export function EquipmentManagePage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const tab: EquipmentTab = search.tab ?? 'lamps';
  useLiveLamps();
  const setTab = (next: EquipmentTab) => void navigate({ search: (old) => ({ ...old, tab: next === 'lamps' ? undefined : next }) });
  const openLamps = (filter: LampSearch) => void navigate({ search: { ...filter } });

  return (
    <PagePanel
      title={
        <Group gap="sm">
          {t('common:route.equipmentManage')}
          <Tooltip label={t('lighting:list.liveHint')}>
            <Badge variant="dot" color="teal">
              {t('lighting:list.live')}
            </Badge>
          </Tooltip>
        </Group>
      }
    >
      <Tabs value={tab} onChange={(v) => v && setTab(v as EquipmentTab)} keepMounted={false}>
        <Tabs.List mb="md">
          {EQUIPMENT_TABS.map((name) => (
            <Tabs.Tab key={name} value={name} data-testid={`equipment-tab-${name}`}>
              {t(`lighting:equipment.tabs.${name}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Suspense fallback={<Loader size="sm" />}>
          <Tabs.Panel value="gateways">
            <GatewaysTab onOpenLamps={(gatewayId) => openLamps({ gatewayId })} />
          </Tabs.Panel>
          <Tabs.Panel value="loops">
            <LoopsTab />
          </Tabs.Panel>
          <Tabs.Panel value="lamps">
            <LampsTab
              search={search}
              onSearch={(next) => void navigate({ search: next })}
              onDispatch={(dispatch) => void navigate({ search: (old) => ({ ...old, dispatch }), replace: true, resetScroll: false })}
            />
          </Tabs.Panel>
          <Tabs.Panel value="groups">
            <GroupsTab onOpenLamps={(groupId) => openLamps({ groupId })} />
          </Tabs.Panel>
        </Suspense>
      </Tabs>
    </PagePanel>
  );
}
