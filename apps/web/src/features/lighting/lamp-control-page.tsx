import { useState } from 'react';
import { Button, Grid, Group, Stack } from '@mantine/core';
import { Select } from '@/components/select';
import { IconBulb, IconBulbOff, IconAdjustments } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, DIMMING_LEVELS, DeviceFamily, type DimmingLevel, type LampAction, type LampControlRequest } from '@sc/contracts';
import { PagePanel } from '@/components/page-panel';
import { TableFooter } from '@/components/table-footer';
import { useAreaTree } from '@/components/area-cascader';
import { notifySuccess } from '@/components/notify';
import { SelectionSummary } from '@/components/selection';
import { useButton } from '@/auth/session-store';
import { paging } from '@/navigation/search-params';
import { describeLampDispatch, useLampControl, useLampPage, useLiveLamps } from './api';
import { TelemetryCell } from './lamp-badges';
import { LampFilters } from './lamp-filters';
import { DispatchPanel } from '@/features/dispatch/dispatch-panel';
import { LampPickTable, TargetModeSwitch, TargetRegionField, confirmLampCommand, useLampTarget } from './lamp-target';

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
  useLiveLamps();

  const rows = lamps.data?.list ?? [];
  const target = useLampTarget(rows.map((r) => r.id));
  const { mode, selection } = target;
  const [level, setLevel] = useState<DimmingLevel>(60);

  const send = async (action: LampAction) => {
    const to = target.picked({ lamps: t('lighting:control.nothingSelected'), region: t('lighting:control.regionRequired') });
    if (!to) return;
    const body: LampControlRequest = { ...to, action, ...(action === 'dim' ? { level } : {}) };
    const actionText = t(`lighting:dispatch.action.${action}`, { level });
    const confirmed = await confirmLampCommand(to, actionText, tree, { testId: 'control-confirm' });
    if (!confirmed) return;
    control.mutate(body, {
      onSuccess: ({ dispatchId }) => {
        notifySuccess(t('messages:instructionSent'));
        void navigate({ search: { ...search, dispatch: dispatchId }, replace: true, resetScroll: false });
      },
    });
  };

  return (
    <PagePanel title={t('common:route.lampControl')}>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Stack gap="sm">
            <Group justify="space-between" wrap="wrap">
              <TargetModeSwitch
                target={target}
                labels={{ lamps: t('lighting:control.byLamps'), region: t('lighting:control.byRegion') }}
                ariaLabel={t('lighting:control.selection')}
                testId="control-mode"
              />
              <Group gap="xs" wrap="wrap">
                {canOpen && (
                  <Button
                    leftSection={<IconBulb size={16} />}
                    color="yellow"
                    onClick={() => void send('on')}
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
                    onClick={() => void send('off')}
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
                      onClick={() => void send('dim')}
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
              <TargetRegionField target={target} testId="control-region" />
            ) : (
              <>
                <LampFilters search={search} onApply={(next) => void navigate({ search: { ...next, dispatch: search.dispatch } })} />
                <SelectionSummary
                  selection={selection}
                  text={t('lighting:control.selected', { count: selection.selected.size })}
                  clearLabel={t('lighting:control.clearSelection')}
                  testId="control-selected"
                />
                <LampPickTable
                  rows={rows}
                  selection={selection}
                  selectPageLabel={t('lighting:control.selectPage')}
                  testId="control"
                  tableTestId="control-table"
                  nameWeight={500}
                  extra={[
                    {
                      key: 'bri',
                      label: t('lighting:fields.bri'),
                      cell: (lamp) => (lamp.switchState === 1 ? `${lamp.bri} %` : t('lighting:switch.off')),
                    },
                    { key: 'power', label: t('lighting:fields.power'), hidden: true, cell: (lamp) => <TelemetryCell lamp={lamp} /> },
                  ]}
                />
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
          <DispatchPanel family={DeviceFamily.Lamp} dispatchId={search.dispatch ?? null} describe={describeLampDispatch} />
        </Grid.Col>
      </Grid>
    </PagePanel>
  );
}
