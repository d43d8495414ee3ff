import { Input, SegmentedControl, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TerminalSelection } from '@sc/contracts';
import { AreaCascader } from '@/components/area-cascader';
import { SearchPickSelect, usePickSearch, type PickedItem } from '@/components/search-pick-select';
import { GroupPicker } from './group-picker';
import { useTerminalPage } from './api';

export type TerminalTargetMode = 'terminals' | 'region' | 'groups';
const MODE_LABEL = { terminals: 'byTerminals', region: 'byRegion', groups: 'byGroups' } as const satisfies Record<TerminalTargetMode, string>;

/** What the operator picked in each mode; only the mode shown is sent. */
export interface TerminalTarget {
  mode: TerminalTargetMode;
  /** Chosen terminals, with the label each showed when chosen (it stays after another search). */
  terminals: PickedItem[];
  regionId: number | null;
  groupIds: number[];
}

export const NO_TARGET: TerminalTarget = { mode: 'terminals', terminals: [], regionId: null, groupIds: [] };

/** The selection the server takes (exactly one of ids, regionId, groupIds), or null when the shown mode has nothing picked. */
export function targetSelection(target: TerminalTarget): TerminalSelection | null {
  if (target.mode === 'terminals') return target.terminals.length ? { ids: target.terminals.map((t) => t.id) } : null;
  if (target.mode === 'region') return target.regionId !== null ? { regionId: target.regionId } : null;
  return target.groupIds.length ? { groupIds: target.groupIds } : null;
}

/** The server's refusal of the selection stands under the picker of the mode it is about. */
const FIELD_OF: Record<TerminalTargetMode, keyof TerminalSelection> = { terminals: 'ids', region: 'regionId', groups: 'groupIds' };

/**
 * Where a broadcast goes: chosen terminals (searched by name or terminal ID), every terminal of a region and of its
 * sub-regions, or the terminals of broadcast groups (GroupPicker: an empty group cannot be chosen). `errors` are the
 * form's messages by field (ids, regionId, groupIds); `error` one for whichever mode is shown.
 */
export function TerminalTargetField({
  value,
  onChange,
  errors,
  error,
  testId,
}: {
  value: TerminalTarget;
  onChange: (next: TerminalTarget) => void;
  errors: Partial<Record<string, string>>;
  error?: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const { search, setSearch, query } = usePickSearch();
  const found = useTerminalPage({ pageNum: 1, pageSize: 50, terminalName: query });
  const shownError = errors[FIELD_OF[value.mode]] ?? error;

  return (
    <Input.Wrapper label={t('broadcastTasks:immediate.targets')} required>
      <Stack gap="xs" mt={4}>
        <SegmentedControl
          value={value.mode}
          onChange={(mode) => onChange({ ...value, mode: mode as TerminalTargetMode })}
          data={Object.entries(MODE_LABEL).map(([mode, label]) => ({ value: mode, label: t(`broadcastTasks:immediate.${label}`) }))}
          data-testid={`${testId}-mode`}
        />
        {value.mode === 'terminals' && (
          <SearchPickSelect
            aria-label={t('broadcastTasks:immediate.byTerminals')}
            placeholder={t('broadcastTasks:immediate.terminalsPlaceholder')}
            search={search}
            onSearchChange={setSearch}
            nothingFoundMessage={t('broadcastTasks:immediate.noTerminals')}
            found={(found.data?.list ?? []).map((row) => ({ id: row.id, label: `${row.terminalName} (${row.terminalId})` }))}
            value={value.terminals}
            onChange={(terminals) => onChange({ ...value, terminals })}
            error={shownError}
            data-testid={`${testId}-terminals`}
          />
        )}
        {value.mode === 'region' && (
          <AreaCascader
            label={t('broadcastTasks:immediate.byRegion')}
            value={value.regionId}
            onChange={(regionId) => onChange({ ...value, regionId })}
            error={shownError}
            data-testid={`${testId}-region`}
          />
        )}
        {value.mode === 'groups' && (
          <GroupPicker
            value={value.groupIds}
            onChange={(groupIds) => onChange({ ...value, groupIds })}
            error={shownError}
            testId={`${testId}-groups`}
          />
        )}
      </Stack>
    </Input.Wrapper>
  );
}
