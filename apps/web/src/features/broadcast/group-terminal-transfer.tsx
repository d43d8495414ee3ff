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

/**
 * The terminals of a group being edited: a page of the terminal list (searched by name and region) whose ticks are
 * the membership, kept across pages and searches, and the rows of every ticked terminal to show them beside it.
 */
export function useTerminalTransfer(initial: readonly TerminalRow[]) {
  const [draft, setDraft] = useState<Filters>({});
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState({ pageNum: 1, pageSize: 10 });
  const terminals = useTerminalPage({ ...filters, ...page });
  const rows = terminals.data?.list ?? NO_ROWS;
  const selection = usePageSelection(
    rows.map((r) => r.id),
    initial.map((r) => r.id),
  );
  // Every terminal seen, so a ticked one still shows once its page is left.
  const [known, setKnown] = useState(() => new Map(initial.map((r) => [r.id, r])));
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
    { key: 'region', label: t('broadcast:fields.region'), cell: (terminal) => regionLabel(terminal.regionName) },
  ];
}

/**
 * Chooses a group's terminals: the terminal list on the left, searched by name and region, ticked to put a terminal
 * in the group; the group's terminals on the right, each with its status, to take out again.
 */
export function GroupTerminalTransfer({ transfer, error }: { transfer: TerminalTransfer; error?: string }) {
  const { t } = useTranslation();
  const { selection, chosen } = transfer;
  const columns = useTableColumns('group-terminals', useColumns());
  const takeOut = (id: number) => selection.setSelected((current) => new Set([...current].filter((other) => other !== id)));
  return (
    <Stack gap="xs">
      <Text fw={500}>{t('broadcast:groups.terminals.title')}</Text>
      {error && (
        <Text c="red" size="sm" data-testid="group-terminals-error">
          {error}
        </Text>
      )}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {t('broadcast:groups.terminals.choose')}
            </Text>
            <DeviceListFilters
              testId="group-terminal"
              nameKey="terminalName"
              nameLabel={t('broadcast:fields.terminalName')}
              regionLabel={t('broadcast:fields.region')}
              draft={transfer.draft}
              setDraft={transfer.setDraft}
              apply={transfer.apply}
            />
            <DeviceTable
              testId="group-terminal"
              rows={transfer.rows}
              loading={transfer.terminals.isLoading}
              selection={selection}
              columns={columns}
              texts="broadcast:list"
              rowLabel={(terminal) => terminal.terminalName}
              rowTestId={(terminal) => `group-terminal-row-${terminal.terminalId}`}
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
              <Text size="sm" c="dimmed" data-testid="group-chosen-count">
                {t('broadcast:groups.terminals.chosen', { count: chosen.length })}
              </Text>
              {chosen.length > 0 && (
                <Button size="compact-sm" variant="subtle" onClick={() => selection.setSelected(new Set())}>
                  {t('broadcast:groups.terminals.removeAll')}
                </Button>
              )}
            </Group>
            <ScrollArea.Autosize mah={480}>
              <Table data-testid="group-chosen-table">
                <Table.Tbody>
                  {chosen.length === 0 && (
                    <TableEmptyRow colSpan={3} size="sm" py="md">
                      {t('broadcast:groups.terminals.none')}
                    </TableEmptyRow>
                  )}
                  {chosen.map((terminal) => (
                    <Table.Tr key={terminal.id} data-testid={`group-chosen-${terminal.terminalId}`}>
                      <Table.Td>
                        <NameCode name={terminal.terminalName} code={terminal.terminalId} />
                      </Table.Td>
                      <Table.Td>
                        <TerminalStatusBadge status={terminal.status} />
                      </Table.Td>
                      <PinnedActionsCell>
                        <IconAction label={t('broadcast:groups.terminals.remove')} color="gray" variant="subtle" onClick={() => takeOut(terminal.id)}>
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
