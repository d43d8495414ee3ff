import { useState } from 'react';
import { Button, Grid, Group, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TerminalRow } from '@sc/contracts';
import { DeviceListFilters, DeviceTable } from '@/components/device-list';
import { IconAction } from '@/components/row-actions';
import { usePageSelection } from '@/components/selection';
import { PinnedActionsCell, useTableColumns, type Column } from '@/components/table-columns';
import { TableFooter } from '@/components/table-footer';
import { NameCode, TableEmptyRow } from '@/components/table-parts';
import { useRegionLabel } from '@/features/region/area-tree';
import { useTerminalPage } from './api';
import { TerminalStatusBadge } from './terminal-badges';

interface Filters {
  terminalName?: string;
  regionId?: number;
}

const NO_ROWS: readonly TerminalRow[] = [];

/** What the chosen list shows of a terminal. */
export type ChosenTerminal = Pick<TerminalRow, 'id' | 'terminalName' | 'terminalId' | 'status'>;

/**
 * The terminals of a group (or task) being edited: a page of the terminal list (searched by name and region) whose
 * ticks are the choice, kept across pages and searches, and the rows of every ticked terminal to show them beside
 * it. `initialIds` (the ids of `initial` unless given) are ticked at first, shown as far as `initial` has their rows.
 */
export function useTerminalTransfer(initial: readonly ChosenTerminal[], initialIds: readonly number[] = initial.map((r) => r.id)) {
  const [draft, setDraft] = useState<Filters>({});
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState({ pageNum: 1, pageSize: 10 });
  const terminals = useTerminalPage({ ...filters, ...page });
  const rows = terminals.data?.list ?? NO_ROWS;
  const selection = usePageSelection(
    rows.map((r) => r.id),
    initialIds,
  );
  // Every terminal seen, so a ticked one still shows once its page is left.
  const [known, setKnown] = useState(() => new Map<number, ChosenTerminal>(initial.map((r) => [r.id, r])));
  const [seen, setSeen] = useState<readonly TerminalRow[]>(NO_ROWS);
  if (seen !== rows) {
    setSeen(rows);
    setKnown((current) => new Map([...current, ...rows.map((r) => [r.id, r] as const)]));
  }
  return {
    draft,
    setDraft,
    apply: (next: Filters) => {
      setFilters(next);
      setPage((p) => ({ ...p, pageNum: 1 }));
    },
    page,
    setPage,
    terminals,
    rows,
    selection,
    chosen: [...selection.selected].flatMap((id) => known.get(id) ?? []),
  };
}

export type TerminalTransfer = ReturnType<typeof useTerminalTransfer>;

function useColumns(): Column<TerminalRow>[] {
  const { t } = useTranslation();
  const regionLabel = useRegionLabel();
  return [
    {
      key: 'name',
      label: t('broadcast:fields.terminalName'),
      always: true,
      cell: (terminal) => <NameCode name={terminal.terminalName} code={terminal.terminalId} fw={500} />,
    },
    { key: 'status', label: t('broadcast:fields.status'), cell: (terminal) => <TerminalStatusBadge status={terminal.status} /> },
    { key: 'region', label: t('broadcast:fields.region'), cell: (terminal) => regionLabel(terminal) },
  ];
}

/**
 * Chooses terminals (a group's, a task's): the terminal list on the left, searched by name and region, ticked to
 * choose a terminal; the chosen terminals on the right, each with its status, to take out again. `texts` and
 * `testId` name the use (a group's, a task's).
 */
export function GroupTerminalTransfer({
  transfer,
  error,
  texts,
  testId = 'group',
}: {
  transfer: TerminalTransfer;
  error?: string;
  /** Where its texts are (title, choose, chosen, none, remove, removeAll), in the namespace of the page that uses it. */
  texts: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  const { selection, chosen } = transfer;
  const columns = useTableColumns(`${testId}-terminals`, useColumns());
  const text = (key: 'title' | 'choose' | 'chosen' | 'none' | 'remove' | 'removeAll', params?: { count: number }) =>
    t(`${texts}.${key}`, params ?? {});
  const takeOut = (id: number) => selection.setSelected((current) => new Set([...current].filter((other) => other !== id)));
  return (
    <Stack gap="xs">
      <Text fw={500}>{text('title')}</Text>
      {error && (
        <Text c="red" size="sm" data-testid={`${testId}-terminals-error`}>
          {error}
        </Text>
      )}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {text('choose')}
            </Text>
            <DeviceListFilters
              testId={`${testId}-terminal`}
              nameKey="terminalName"
              nameLabel={t('broadcast:fields.terminalName')}
              regionLabel={t('broadcast:fields.region')}
              draft={transfer.draft}
              setDraft={transfer.setDraft}
              apply={transfer.apply}
            />
            <DeviceTable
              testId={`${testId}-terminal`}
              rows={transfer.rows}
              loading={transfer.terminals.isLoading}
              selection={selection}
              columns={columns}
              texts="broadcast:list"
              rowLabel={(terminal) => terminal.terminalName}
              rowTestId={(terminal) => `${testId}-terminal-row-${terminal.terminalId}`}
              withActions={false}
              actions={() => <PinnedActionsCell />}
            />
            <TableFooter
              total={transfer.terminals.data?.total ?? 0}
              pageNum={transfer.page.pageNum}
              pageSize={transfer.page.pageSize}
              onChange={transfer.setPage}
            />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Stack gap="sm">
            <Group justify="space-between">
              <Text size="sm" c="dimmed" data-testid={`${testId}-chosen-count`}>
                {text('chosen', { count: selection.selected.size })}
              </Text>
              {chosen.length > 0 && (
                <Button size="compact-sm" variant="subtle" onClick={() => selection.setSelected(new Set())}>
                  {text('removeAll')}
                </Button>
              )}
            </Group>
            <ScrollArea.Autosize mah={480}>
              <Table data-testid={`${testId}-chosen-table`}>
                <Table.Tbody>
                  {chosen.length === 0 && (
                    <TableEmptyRow colSpan={3} size="sm" py="md">
                      {text('none')}
                    </TableEmptyRow>
                  )}
                  {chosen.map((terminal) => (
                    <Table.Tr key={terminal.id} data-testid={`${testId}-chosen-${terminal.terminalId}`}>
                      <Table.Td>
                        <NameCode name={terminal.terminalName} code={terminal.terminalId} />
                      </Table.Td>
                      <Table.Td>
                        <TerminalStatusBadge status={terminal.status} />
                      </Table.Td>
                      <PinnedActionsCell>
                        <IconAction label={text('remove')} color="gray" variant="subtle" onClick={() => takeOut(terminal.id)}>
                          <IconX size={16} />
                        </IconAction>
                      </PinnedActionsCell>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
