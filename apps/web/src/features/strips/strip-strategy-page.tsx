import { Suspense, lazy, useState } from 'react';
import { ActionIcon, Badge, Button, Grid, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconEdit, IconPlus, IconSend, IconTrash } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, type StrategyRow } from '@sc/contracts';
import { confirmDelete } from '@/components/confirm';
import { notifySuccess } from '@/components/notify';
import { PagePanel } from '@/components/page-panel';
import { TableFooter } from '@/components/table-footer';
import { useButton } from '@/auth/session-store';
import { paging } from '@/navigation/search-params';
import { useLiveLighting } from '@/features/lighting/api';
import { DispatchPanel } from '@/features/lighting/dispatch-panel';
import { settingsOf } from '@/features/strategy/strategy-summary';
import { useDeleteStripStrategy, useStripStrategyPage } from './api';
import { describeStripDispatch } from './strip-effect-card';

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
  const canAdd = useButton(ButtonPermission.Add);
  const canEdit = useButton(ButtonPermission.Edit);
  const canDelete = useButton(ButtonPermission.Delete);
  const canDistribute = useButton(ButtonPermission.OpenAndClose);
  // Dispatch progress events, for the panel.
  useLiveLighting();

  const [editing, setEditing] = useState<{ row: StrategyRow | null } | null>(null);
  const [distributing, setDistributing] = useState<StrategyRow | null>(null);
  const rows = strategies.data?.list ?? [];

  const onDelete = async (row: StrategyRow) => {
    if (!(await confirmDelete(t('strategy:list.deleteDetail', { name: row.name })))) return;
    remove.mutate(row.id, { onSuccess: () => notifySuccess(t('common:feedback.deleted')) });
  };

  return (
    <PagePanel
      title={t('common:route.lightStrategy')}
      actions={
        canAdd && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ row: null })} data-testid="strip-strategy-add">
            {t('strategy:list.add')}
          </Button>
        )
      }
    >
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Stack gap="sm">
            <Table.ScrollContainer minWidth={720} type="native">
              <Table striped highlightOnHover data-testid="strip-strategy-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('strategy:fields.name')}</Table.Th>
                    <Table.Th>{t('strategy:fields.mode')}</Table.Th>
                    <Table.Th>{t('strategy:fields.settings')}</Table.Th>
                    <Table.Th>{t('strategy:fields.periods')}</Table.Th>
                    <Table.Th>{t('strip:strategy.strips')}</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.length === 0 && (
                    <Table.Tr>
                      <Table.Td colSpan={6}>
                        <Text size="sm" c="dimmed" ta="center">
                          {t('strategy:list.empty')}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  )}
                  {rows.map((row) => (
                    <Table.Tr key={row.id} data-testid={`strip-strategy-row-${row.name}`}>
                      <Table.Td>
                        <Text size="sm" fw={500}>
                          {row.name}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="light">{t(`strategy:mode.${row.mode}`)}</Badge>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{settingsOf(t, row)}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">
                          {row.periods.length === 0
                            ? t('strategy:summary.noPeriods')
                            : row.periods.map((p) => t('strategy:summary.period', { start: p.start, end: p.end, level: p.level })).join(', ')}
                        </Text>
                      </Table.Td>
                      <Table.Td data-testid="strip-strategy-count">{t('strip:strategy.count', { count: row.deviceCount })}</Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap" justify="flex-end">
                          {canDistribute && (
                            <Tooltip label={t('strip:strategy.distribute')}>
                              <ActionIcon variant="subtle" onClick={() => setDistributing(row)} data-testid={`strip-strategy-distribute-${row.name}`}>
                                <IconSend size={16} />
                              </ActionIcon>
                            </Tooltip>
                          )}
                          {canEdit && (
                            <Tooltip label={t('strategy:list.edit')}>
                              <ActionIcon variant="subtle" onClick={() => setEditing({ row })}>
                                <IconEdit size={16} />
                              </ActionIcon>
                            </Tooltip>
                          )}
                          {canDelete && (
                            <Tooltip label={t('common:actions.delete')}>
                              <ActionIcon variant="subtle" color="red" onClick={() => void onDelete(row)}>
                                <IconTrash size={16} />
                              </ActionIcon>
                            </Tooltip>
                          )}
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <TableFooter
              total={strategies.data?.total ?? 0}
              pageNum={pageNum}
              pageSize={pageSize}
              onChange={(page) => void navigate({ search: { ...search, ...page } })}
            />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <DispatchPanel dispatchId={search.dispatch ?? null} describe={describeStripDispatch} />
        </Grid.Col>
      </Grid>
      <Suspense fallback={null}>
        {editing !== null && <StrategyFormModal opened family="strip" strategy={editing.row} onClose={() => setEditing(null)} />}
        {distributing !== null && (
          <StripDistributeModal
            strategy={distributing}
            onClose={() => setDistributing(null)}
            onDistributed={(dispatchId) => {
              setDistributing(null);
              void navigate({ search: { ...search, dispatch: dispatchId }, replace: true });
            }}
          />
        )}
      </Suspense>
    </PagePanel>
  );
}
