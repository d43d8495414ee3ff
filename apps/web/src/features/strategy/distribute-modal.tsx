import { useEffect, useState } from 'react';
import { Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import type { StrategyRow } from '@sc/contracts';
import { useAreaTree } from '@/components/area-cascader';
import { notifySuccess } from '@/components/notify';
import { TableFooter } from '@/components/table-footer';
import { FormActions } from '@/components/form-actions';
import { useIsMobile } from '@/layout/use-is-mobile';
import { useLampPage } from '@/features/lighting/api';
import { LampPickTable, TargetModeSwitch, TargetRegionField, confirmLampCommand, useLampTarget } from '@/features/lighting/lamp-target';
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
  const { tree } = useAreaTree();
  const [name, setName] = useState('');
  const [lampName] = useDebouncedValue(name.trim(), 300);
  const [page, setPage] = useState({ pageNum: 1, pageSize: 20 });
  const lamps = useLampPage({ ...page, lampName: lampName || undefined });
  const rows = lamps.data?.list ?? [];
  const target = useLampTarget(rows.map((r) => r.id));
  useEffect(() => {
    if (strategy) target.clear();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when another strategy is to be distributed
  }, [strategy]);

  const submit = async () => {
    if (!strategy) return;
    const to = target.picked({ lamps: t('messages:selectListItem'), region: t('strategy:distribute.regionRequired') });
    if (!to) return;
    const action = t('strategy:distribute.title', { name: strategy.name });
    const confirmed = await confirmLampCommand(to, action, tree, { confirm: t('strategy:distribute.confirm') });
    if (!confirmed) return;
    distribute.mutate(
      { id: strategy.id, ...to },
      {
        onSuccess: ({ dispatchId }) => {
          notifySuccess(t('messages:instructionSent'));
          onDistributed(dispatchId);
        },
      },
    );
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
        <TargetModeSwitch
          target={target}
          labels={{ lamps: t('strategy:distribute.byLamps'), region: t('strategy:distribute.byRegion') }}
          testId="distribute-mode"
        />
        {target.mode === 'region' ? (
          <TargetRegionField target={target} testId="distribute-region" />
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
                {t('strategy:distribute.selected', { count: target.selection.selected.size })}
              </Text>
            </Group>
            <LampPickTable
              rows={rows}
              selection={target.selection}
              selectPageLabel={t('strategy:distribute.selectPage')}
              testId="distribute"
              fz="sm"
            />
            <TableFooter total={lamps.data?.total ?? 0} pageNum={page.pageNum} pageSize={page.pageSize} onChange={setPage} />
          </>
        )}
        <FormActions
          onCancel={onClose}
          onConfirm={() => void submit()}
          loading={distribute.isPending}
          testId="distribute-confirm"
          label={t('strategy:distribute.confirm')}
        />
      </Stack>
    </Modal>
  );
}
