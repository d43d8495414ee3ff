import { useEffect, useState } from 'react';
import { Button, Checkbox, Group, Modal, SegmentedControl, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import type { StrategyRow } from '@sc/contracts';
import { AreaCascader } from '@/components/area-cascader';
import { notifyError, notifySuccess } from '@/components/notify';
import { TableFooter } from '@/components/table-footer';
import { useIsMobile } from '@/layout/use-is-mobile';
import { useLampPage } from '@/features/lighting/api';
import { LampStatusBadge, NetworkBadge } from '@/features/lighting/lamp-badges';
import { useDistributeStrategy } from './api';

/** Pick lamps (any number of pages) or a region, and distribute the strategy to them; answers the dispatch id. */
export function DistributeModal({
  strategy,
  onClose,
  onDistributed,
}: {
  strategy: StrategyRow | null;
  onClose: () => void;
  onDistributed: (dispatchId: string) => void;
}) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const distribute = useDistributeStrategy();
  const [mode, setMode] = useState<'lamps' | 'region'>('lamps');
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [regionId, setRegionId] = useState<number | null>(null);
  const [name, setName] = useState('');
  const [lampName] = useDebouncedValue(name.trim(), 300);
  const [page, setPage] = useState({ pageNum: 1, pageSize: 20 });
  const lamps = useLampPage({ ...page, lampName: lampName || undefined });
  useEffect(() => {
    if (strategy) {
      setSelected(new Set());
      setRegionId(null);
    }
  }, [strategy]);

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

  const submit = () => {
    if (!strategy) return;
    if (mode === 'lamps' && selected.size === 0) return notifyError(t('messages:selectListItem'));
    if (mode === 'region' && regionId === null) return notifyError(t('strategy:distribute.regionRequired'));
    const body = mode === 'lamps' ? { id: strategy.id, ids: [...selected] } : { id: strategy.id, regionId: regionId! };
    distribute.mutate(body, {
      onSuccess: ({ dispatchId }) => {
        notifySuccess(t('messages:instructionSent'));
        onDistributed(dispatchId);
      },
    });
  };

  return (
    <Modal
      opened={strategy !== null}
      onClose={onClose}
      title={t('strategy:distribute.title', { name: strategy?.name ?? '' })}
      size="xl"
      fullScreen={mobile}
    >
      <Stack data-testid="distribute-modal">
        <SegmentedControl
          value={mode}
          onChange={(v) => setMode(v as 'lamps' | 'region')}
          data={[
            { value: 'lamps', label: t('strategy:distribute.byLamps') },
            { value: 'region', label: t('strategy:distribute.byRegion') },
          ]}
          data-testid="distribute-mode"
        />
        {mode === 'region' ? (
          <AreaCascader label={t('lighting:fields.region')} value={regionId} onChange={setRegionId} data-testid="distribute-region" />
        ) : (
          <>
            <Group justify="space-between">
              <TextInput
                placeholder={t('strategy:distribute.search')}
                value={name}
                onChange={(e) => {
                  setName(e.currentTarget.value);
                  setPage((p) => ({ ...p, pageNum: 1 }));
                }}
                data-testid="distribute-search"
              />
              <Text size="sm" c="dimmed" data-testid="distribute-selected">
                {t('strategy:distribute.selected', { count: selected.size })}
              </Text>
            </Group>
            <Table.ScrollContainer minWidth={600} type="native">
              <Table striped highlightOnHover fz="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={40}>
                      <Checkbox
                        aria-label={t('strategy:distribute.selectPage')}
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
                        data-testid="distribute-select-page"
                      />
                    </Table.Th>
                    <Table.Th>{t('lighting:fields.lampName')}</Table.Th>
                    <Table.Th>{t('lighting:fields.status')}</Table.Th>
                    <Table.Th>{t('lighting:fields.networkStatus')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((lamp) => (
                    <Table.Tr
                      key={lamp.id}
                      onClick={() => toggle(lamp.id)}
                      style={{ cursor: 'pointer' }}
                      data-testid={`distribute-row-${lamp.clientId}`}
                    >
                      <Table.Td onClick={(e) => e.stopPropagation()}>
                        <Checkbox checked={selected.has(lamp.id)} onChange={() => toggle(lamp.id)} aria-label={lamp.lampName} />
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{lamp.lampName}</Text>
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
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <TableFooter total={lamps.data?.total ?? 0} pageNum={page.pageNum} pageSize={page.pageSize} onChange={setPage} />
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common:actions.cancel')}
          </Button>
          <Button onClick={submit} loading={distribute.isPending} data-testid="distribute-confirm">
            {t('strategy:distribute.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
