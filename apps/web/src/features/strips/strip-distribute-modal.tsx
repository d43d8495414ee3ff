import { useState } from 'react';
import { Button, Group, Modal, MultiSelect, SegmentedControl, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import type { StrategyRow } from '@sc/contracts';
import { AreaCascader, areaPathLabel, useAreaTree } from '@/components/area-cascader';
import { notifyError, notifySuccess } from '@/components/notify';
import { confirmTargetCommand } from '@/features/dispatch/confirm-target';
import { currentLanguage } from '@/i18n';
import { useIsMobile } from '@/layout/use-is-mobile';
import { STRIP_PAGE_PATH, useDistributeStripStrategy, useStripPage } from './api';

/** Picks strip lights (by name) or a region, and distributes the strategy to them. */
export function StripDistributeModal({
  strategy,
  onClose,
  onDistributed,
}: {
  strategy: StrategyRow;
  onClose: () => void;
  onDistributed: (dispatchId: string) => void;
}) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const distribute = useDistributeStripStrategy();
  const { tree } = useAreaTree();
  const [mode, setMode] = useState<'strips' | 'region'>('strips');
  const [picked, setPicked] = useState<string[]>([]);
  const [regionId, setRegionId] = useState<number | null>(null);
  const [searchText, setSearchText] = useState('');
  const [name] = useDebouncedValue(searchText.trim(), 250);
  const strips = useStripPage({ pageNum: 1, pageSize: 50, lampName: name || undefined });
  const [known, setKnown] = useState<Map<string, string>>(new Map());
  const options = new Map(known);
  for (const s of strips.data?.list ?? []) options.set(String(s.id), `${s.lampName} · ${s.clientId}`);

  const send = async () => {
    if (mode === 'strips' ? picked.length === 0 : regionId === null) return notifyError(t('strip:strategy.nothingSelected'));
    const name = strategy.name;
    const confirmed = await confirmTargetCommand(mode === 'strips' ? { ids: picked.map(Number) } : { regionId: regionId! }, {
      listPath: STRIP_PAGE_PATH,
      devices: (count) => t('strip:strategy.confirmStrips', { name, count }),
      region: (count) => t('strip:strategy.confirmRegion', { name, count, region: areaPathLabel(tree, regionId!, currentLanguage()) }),
      confirm: t('strip:strategy.distribute'),
    });
    if (!confirmed) return;
    distribute.mutate(mode === 'strips' ? { id: strategy.id, ids: picked.map(Number) } : { id: strategy.id, regionId: regionId! }, {
      onSuccess: ({ dispatchId }) => {
        notifySuccess(t('messages:instructionSent'));
        onDistributed(dispatchId);
      },
    });
  };

  return (
    <Modal opened onClose={onClose} title={t('strip:strategy.distributeTitle', { name: strategy.name })} size="lg" fullScreen={mobile}>
      <Stack data-testid="strip-distribute">
        <Text size="sm" c="dimmed">
          {t('strip:strategy.hint')}
        </Text>
        <SegmentedControl
          value={mode}
          onChange={(v) => setMode(v as 'strips' | 'region')}
          data={[
            { value: 'strips', label: t('strip:strategy.byStrips') },
            { value: 'region', label: t('strip:strategy.byRegion') },
          ]}
        />
        {mode === 'strips' ? (
          <MultiSelect
            label={t('strip:strategy.strips')}
            placeholder={t('strip:strategy.stripsPlaceholder')}
            searchable
            searchValue={searchText}
            onSearchChange={setSearchText}
            data={[...options].map(([value, label]) => ({ value, label }))}
            value={picked}
            onChange={(values) => {
              setPicked(values);
              setKnown(new Map(values.map((v) => [v, options.get(v) ?? v])));
            }}
            data-testid="strip-distribute-strips"
          />
        ) : (
          <AreaCascader label={t('strip:fields.region')} value={regionId} onChange={setRegionId} />
        )}
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {mode === 'strips' ? t('strip:strategy.count', { count: picked.length }) : ''}
          </Text>
          <Group gap="xs">
            <Button variant="default" onClick={onClose}>
              {t('common:actions.cancel')}
            </Button>
            <Button onClick={() => void send()} loading={distribute.isPending} data-testid="strip-distribute-send">
              {t('strip:strategy.distribute')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
