import { useState } from 'react';
import { Button, Checkbox, Grid, Group, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { Select } from '@/components/select';
import { modals } from '@mantine/modals';
import { IconBulb, IconBulbOff, IconAdjustments } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, DIMMING_LEVELS, type DimmingLevel, type LampAction, type LampControlRequest } from '@sc/contracts';
import { PagePanel } from '@/components/page-panel';
import { TableFooter } from '@/components/table-footer';
import { AreaCascader, areaPathLabel, useAreaTree } from '@/components/area-cascader';
import { notifyError, notifySuccess } from '@/components/notify';
import { useButton } from '@/auth/session-store';
import { currentLanguage } from '@/i18n';
import { paging } from '@/navigation/search-params';
import { useLampControl, useLampPage, useLiveLighting } from './api';
import { LampStatusBadge, NetworkBadge, TelemetryCell } from './lamp-badges';
import { LampFilters } from './lamp-filters';
import { DispatchPanel } from './dispatch-panel';

const route = getRouteApi('/_auth/_shell/smartLamp/lampControl');

/** /smartLamp/lampControl: pick lamps or a region, open, close or dim them, and follow the dispatch live. */
export function LampControlPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { pageNum, pageSize } = paging(search);
  const lamps = useLampPage({
    lampName: search.lampName,
    regionId: search.regionId,
    status: search.status,
    networkStatus: search.networkStatus,
    pageNum,
    pageSize,
  });
  const control = useLampControl();
  const { tree } = useAreaTree();
  const canOpen = useButton(ButtonPermission.OpenLamp);
  const canClose = useButton(ButtonPermission.CloseLamp);
  const canDim = useButton(ButtonPermission.OpenAndClose);
  useLiveLighting();

  const [mode, setMode] = useState<'lamps' | 'region'>('lamps');
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [regionId, setRegionId] = useState<number | null>(null);
  const [level, setLevel] = useState<DimmingLevel>(60);

  const rows = lamps.data?.list ?? [];
  const pageIds = rows.map((r) => r.id);
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const send = (action: LampAction) => {
    const body: LampControlRequest =
      mode === 'lamps'
        ? { ids: [...selected], action, ...(action === 'dim' ? { level } : {}) }
        : { regionId: regionId ?? undefined, action, ...(action === 'dim' ? { level } : {}) };
    if (mode === 'lamps' && selected.size === 0) return notifyError(t('lighting:control.nothingSelected'));
    if (mode === 'region' && regionId === null) return notifyError(t('lighting:control.regionRequired'));
    const actionText = t(`lighting:dispatch.action.${action}`, { level });
    modals.openConfirmModal({
      title: t('lighting:control.confirmTitle'),
      children: (
        <Text size="sm">
          {mode === 'lamps'
            ? t('lighting:control.confirmLamps', { action: actionText, count: selected.size })
            : t('lighting:control.confirmRegion', { action: actionText, region: areaPathLabel(tree, regionId!, currentLanguage()) })}
        </Text>
      ),
      labels: { confirm: t('lighting:control.send'), cancel: t('common:actions.cancel') },
      confirmProps: { 'data-testid': 'control-confirm' } as Record<string, string>,
      onConfirm: () =>
        control.mutate(body, {
          onSuccess: ({ dispatchId }) => {
            notifySuccess(t('messages:instructionSent'));
            void navigate({ search: { ...search, dispatch: dispatchId }, replace: true });
          },
        }),
    });
  };

  return (
    <PagePanel title={t('common:route.lampControl')}>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Stack gap="sm">
            <Group justify="space-between" wrap="wrap">
              <SegmentedControl
                value={mode}
                onChange={(v) => setMode(v as 'lamps' | 'region')}
                data={[
                  { value: 'lamps', label: t('lighting:control.byLamps') },
                  { value: 'region', label: t('lighting:control.byRegion') },
                ]}
                aria-label={t('lighting:control.selection')}
                data-testid="control-mode"
              />
              <Group gap="xs" wrap="wrap">
                {canOpen && (
                  <Button
                    leftSection={<IconBulb size={16} />}
                    color="yellow"
                    onClick={() => send('on')}
                    loading={control.isPending}
                    data-testid="control-open"
                  >
                    {t('lighting:control.open')}
                  </Button>
                )}
                {canClose && (
                  <Button
                    leftSection={<IconBulbOff size={16} />}
                    variant="default"
                    onClick={() => send('off')}
                    loading={control.isPending}
                    data-testid="control-close"
                  >
                    {t('lighting:control.close')}
                  </Button>
                )}
                {canDim && (
                  <Group gap={4} wrap="nowrap">
                    <Select
                      w={96}
                      data={DIMMING_LEVELS.map((l) => ({ value: String(l), label: t('lighting:control.levelValue', { level: l }) }))}
                      value={String(level)}
                      onChange={(v) => v && setLevel(Number(v) as DimmingLevel)}
                      allowDeselect={false}
                      aria-label={t('lighting:control.level')}
                      data-testid="control-level"
                    />
                    <Button
                      leftSection={<IconAdjustments size={16} />}
                      variant="light"
                      onClick={() => send('dim')}
                      loading={control.isPending}
                      data-testid="control-dim"
                    >
                      {t('lighting:control.dim')}
                    </Button>
                  </Group>
                )}
              </Group>
            </Group>
            {mode === 'region' ? (
              <AreaCascader label={t('lighting:fields.region')} value={regionId} onChange={setRegionId} data-testid="control-region" />
            ) : (
              <>
                <LampFilters search={search} onApply={(next) => void navigate({ search: { ...next, dispatch: search.dispatch } })} />
                <Group justify="space-between">
                  <Text size="sm" c="dimmed" data-testid="control-selected">
                    {t('lighting:control.selected', { count: selected.size })}
                  </Text>
                  {selected.size > 0 && (
                    <Button size="compact-sm" variant="subtle" onClick={() => setSelected(new Set())}>
                      {t('lighting:control.clearSelection')}
                    </Button>
                  )}
                </Group>
                <Table.ScrollContainer minWidth={880} type="native">
                  <Table striped highlightOnHover data-testid="control-table">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th w={40}>
                          <Checkbox
                            aria-label={t('lighting:control.selectPage')}
                            checked={allOnPage}
                            indeterminate={!allOnPage && pageIds.some((id) => selected.has(id))}
                            onChange={() =>
                              setSelected((current) => {
                                const next = new Set(current);
                                for (const id of pageIds) {
                                  if (allOnPage) next.delete(id);
                                  else next.add(id);
                                }
                                return next;
                              })
                            }
                            data-testid="control-select-page"
                          />
                        </Table.Th>
                        <Table.Th>{t('lighting:fields.lampName')}</Table.Th>
                        <Table.Th>{t('lighting:fields.status')}</Table.Th>
                        <Table.Th>{t('lighting:fields.networkStatus')}</Table.Th>
                        <Table.Th>{t('lighting:fields.bri')}</Table.Th>
                        <Table.Th>{t('lighting:fields.power')}</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {rows.map((lamp) => (
                        <Table.Tr
                          key={lamp.id}
                          data-testid={`control-row-${lamp.clientId}`}
                          onClick={() => toggle(lamp.id)}
                          style={{ cursor: 'pointer' }}
                        >
                          <Table.Td onClick={(e) => e.stopPropagation()}>
                            <Checkbox checked={selected.has(lamp.id)} onChange={() => toggle(lamp.id)} aria-label={lamp.lampName} />
                          </Table.Td>
                          <Table.Td>
                            <Text size="sm" fw={500}>
                              {lamp.lampName}
                            </Text>
                            <Text size="xs" c="dimmed" ff="monospace">
                              {lamp.clientId}
                            </Text>
                          </Table.Td>
                          <Table.Td>
                            <LampStatusBadge status={lamp.status} />
                          </Table.Td>
                          <Table.Td>
                            <NetworkBadge networkStatus={lamp.networkStatus} />
                          </Table.Td>
                          <Table.Td>{lamp.switchState === 1 ? `${lamp.bri} %` : t('lighting:switch.off')}</Table.Td>
                          <Table.Td>
                            <TelemetryCell lamp={lamp} />
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
                <TableFooter
                  total={lamps.data?.total ?? 0}
                  pageNum={pageNum}
                  pageSize={pageSize}
                  onChange={(page) => void navigate({ search: { ...search, ...page } })}
                />
              </>
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <DispatchPanel dispatchId={search.dispatch ?? null} />
        </Grid.Col>
      </Grid>
    </PagePanel>
  );
}
