import { useState, type Dispatch, type ReactNode, type SetStateAction } from 'react';
import { Button, Checkbox, Group, Table, Text } from '@mantine/core';

export interface PageSelection {
  selected: Set<number>;
  setSelected: Dispatch<SetStateAction<Set<number>>>;
  toggle: (id: number) => void;
  /** Every row on screen is ticked (and there is at least one). */
  allOnPage: boolean;
  /** At least one row on screen is ticked. */
  someOnPage: boolean;
  /** Ticks every row on screen, or unticks them all when they all are. */
  togglePage: () => void;
}

/**
 * Rows ticked in a paged table; the ticks stay when the page changes. `pageIds` are the rows on screen now, `initial`
 * those ticked at first.
 */
export function usePageSelection(pageIds: number[], initial: Iterable<number> = []): PageSelection {
  const [selected, setSelected] = useState<Set<number>>(() => new Set(initial));
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const togglePage = () =>
    setSelected((current) => {
      const next = new Set(current);
      for (const id of pageIds) {
        if (allOnPage) next.delete(id);
        else next.add(id);
      }
      return next;
    });
  return { selected, setSelected, toggle, allOnPage, someOnPage: pageIds.some((id) => selected.has(id)), togglePage };
}

/** The header cell that ticks the whole page (indeterminate while only some of its rows are). */
export function SelectPageHeader({ selection, label, testId }: { selection: PageSelection; label: string; testId?: string }) {
  return (
    <Table.Th w={40}>
      <Checkbox
        aria-label={label}
        checked={selection.allOnPage}
        indeterminate={!selection.allOnPage && selection.someOnPage}
        onChange={selection.togglePage}
        data-testid={testId}
      />
    </Table.Th>
  );
}

/** A row that a click anywhere ticks or unticks, starting with its checkbox (named `label`). */
export function SelectableRow({
  selection,
  id,
  label,
  testId,
  children,
}: {
  selection: PageSelection;
  id: number;
  label: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Table.Tr data-testid={testId} onClick={() => selection.toggle(id)} style={{ cursor: 'pointer' }}>
      <Table.Td onClick={(e) => e.stopPropagation()}>
        <Checkbox checked={selection.selected.has(id)} onChange={() => selection.toggle(id)} aria-label={label} />
      </Table.Td>
      {children}
    </Table.Tr>
  );
}

/** How many rows are ticked, and a button that unticks them all while any is. */
export function SelectionSummary({
  selection,
  text,
  clearLabel,
  testId,
}: {
  selection: PageSelection;
  text: string;
  clearLabel: string;
  testId: string;
}) {
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed" data-testid={testId}>
        {text}
      </Text>
      {selection.selected.size > 0 && (
        <Button size="compact-sm" variant="subtle" onClick={() => selection.setSelected(new Set())}>
          {clearLabel}
        </Button>
      )}
    </Group>
  );
}
