import { useState } from 'react';
import { SegmentedControl, Table, type MantineFontSize } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LampRow } from '@sc/contracts';
import { AreaCascader, areaPathLabel } from '@/components/area-cascader';
import { confirmTargetCommand } from '@/features/dispatch/confirm-target';
import { currentLanguage, i18next } from '@/i18n';
import { notifyError } from '@/components/notify';
import { SelectPageHeader, SelectableRow, usePageSelection, type PageSelection } from '@/components/selection';
import { NameCode } from '@/components/table-parts';
import { ColumnCells, ColumnHeads, PinnedActionsCell, TableBox, useTableColumns, type Column } from '@/components/table-columns';
import { LAMP_PAGE_PATH } from './api';
import { LampStatusBadge, NetworkBadge } from './lamp-badges';

export type TargetMode = 'lamps' | 'region';

/** Where a command or a strategy goes: the ticked lamps, or every lamp of a region. */
export type LampTarget = { ids: number[] } | { regionId: number };

/** The lamps or the region a user picks; `pageIds` are the lamps listed now. */
export function useLampTarget(pageIds: number[]) {
  const [mode, setMode] = useState<TargetMode>('lamps');
  const selection = usePageSelection(pageIds);
  const [regionId, setRegionId] = useState<number | null>(null);
  return {
    mode,
    setMode,
    selection,
    regionId,
    setRegionId,
    /** Forgets the ticked lamps and the region. */
    clear: () => {
      selection.setSelected(new Set());
      setRegionId(null);
    },
    /** The target picked, or null after showing `missing` for the mode when nothing is picked. */
    picked: (missing: Record<TargetMode, string>): LampTarget | null => {
      if (mode === 'lamps' ? selection.selected.size === 0 : regionId === null) {
        notifyError(missing[mode]);
        return null;
      }
      return mode === 'lamps' ? { ids: [...selection.selected] } : { regionId: regionId! };
    },
  };
}

export type LampTargetState = ReturnType<typeof useLampTarget>;

/**
 * Confirms `action` for the picked lamps ("… for 3 lamps.") or for a region's, counted just before asking ("… for the
 * 12 lamps in Futian District and its sub-regions."); `tree` names the region. Resolves true when confirmed.
 */
export function confirmLampCommand(
  to: LampTarget,
  action: string,
  tree: Parameters<typeof areaPathLabel>[0],
  options: { confirm?: string; testId?: string } = {},
): Promise<boolean> {
  return confirmTargetCommand(to, {
    listPath: LAMP_PAGE_PATH,
    devices: (count) => i18next.t('lighting:control.confirmLamps', { action, count }),
    region: (count) =>
      i18next.t('lighting:control.confirmRegion', {
        action,
        count,
        region: 'regionId' in to ? areaPathLabel(tree, to.regionId, currentLanguage()) : '',
      }),
    ...options,
  });
}

/** Lamps or region. */
export function TargetModeSwitch({
  target,
  labels,
  ariaLabel,
  testId,
}: {
  target: LampTargetState;
  labels: Record<TargetMode, string>;
  ariaLabel?: string;
  testId: string;
}) {
  return (
    <SegmentedControl
      value={target.mode}
      onChange={(v) => target.setMode(v as TargetMode)}
      data={[
        { value: 'lamps', label: labels.lamps },
        { value: 'region', label: labels.region },
      ]}
      aria-label={ariaLabel}
      data-testid={testId}
    />
  );
}

/** The region picker of the region mode. */
export function TargetRegionField({ target, testId }: { target: LampTargetState; testId: string }) {
  const { t } = useTranslation();
  return <AreaCascader label={t('lighting:fields.region')} value={target.regionId} onChange={target.setRegionId} data-testid={testId} />;
}

/**
 * A page of lamps to tick: name and code, status and network, then any `extra` columns, with a column chooser (the
 * choice kept per `testId`). Test ids are `<testId>-select-page` and `<testId>-row-<clientId>`.
 */
export function LampPickTable({
  rows,
  selection,
  selectPageLabel,
  testId,
  tableTestId,
  fz,
  nameWeight,
  extra = [],
}: {
  rows: LampRow[];
  selection: PageSelection;
  selectPageLabel: string;
  testId: string;
  tableTestId?: string;
  fz?: MantineFontSize;
  nameWeight?: number;
  extra?: Column<LampRow>[];
}) {
  const { t } = useTranslation();
  const columns = useTableColumns<LampRow>(`${testId}-lamps`, [
    {
      key: 'name',
      label: t('lighting:fields.lampName'),
      always: true,
      cell: (lamp) => <NameCode name={lamp.lampName} code={lamp.clientId} fw={nameWeight} />,
    },
    { key: 'status', label: t('lighting:fields.status'), cell: (lamp) => <LampStatusBadge status={lamp.status} /> },
    { key: 'network', label: t('lighting:fields.networkStatus'), cell: (lamp) => <NetworkBadge networkStatus={lamp.networkStatus} /> },
    ...extra,
  ]);
  return (
    <TableBox>
      <Table striped highlightOnHover fz={fz} data-testid={tableTestId}>
        <ColumnHeads
          columns={columns}
          actions={false}
          lead={<SelectPageHeader selection={selection} label={selectPageLabel} testId={`${testId}-select-page`} />}
        />
        <Table.Tbody>
          {rows.map((lamp) => (
            <SelectableRow key={lamp.id} selection={selection} id={lamp.id} label={lamp.lampName} testId={`${testId}-row-${lamp.clientId}`}>
              <ColumnCells columns={columns} row={lamp} />
              <PinnedActionsCell />
            </SelectableRow>
          ))}
        </Table.Tbody>
      </Table>
    </TableBox>
  );
}
