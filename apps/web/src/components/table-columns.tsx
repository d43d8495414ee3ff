import type { ReactNode } from 'react';
import { Group, Table, Text, type MantineBreakpoint, type TableTdProps, type TextProps } from '@mantine/core';
import { IconColumns3 } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useColumnChoices } from '@/settings/columns-store';
import { lazyComponent } from './deferred';
import { MenuButton } from './menu-button';
import classes from './table-columns.module.css';

const ColumnMenu = lazyComponent(() => import('./column-menu'), 'ColumnMenu');

/** One column of a list: its header, its cell, and whether it shows before the operator chooses. */
export interface Column<Row> {
  /** Stable name: the operator's choice is remembered under it. */
  key: string;
  /** Header text, also the column's name in the chooser. */
  label: string;
  /** What the cell shows (its Table.Td comes from ColumnCells). */
  cell: (row: Row) => ReactNode;
  /** Detail the table leaves out until the operator shows it, so the defaults fit a 1440 px screen. */
  hidden?: boolean;
  /** Always shown (the row's name): not offered in the chooser. */
  always?: boolean;
  /** Text that may run over several lines (a summary); every other cell keeps to one. */
  wrap?: boolean;
  /** Figures line up on the right, header included. */
  align?: 'right';
  /** Left out below this breakpoint whatever the choice (a phone has no room for it). */
  visibleFrom?: MantineBreakpoint;
  /** Props of the cell, e.g. a test id or monospace. */
  td?: TableTdProps & { 'data-testid'?: string };
}

/** The columns of one table as the operator chose them (remembered per table in local storage, `sc-columns`). */
export interface TableColumns<Row> {
  table: string;
  all: readonly Column<Row>[];
  shown: readonly Column<Row>[];
  isShown: (key: string) => boolean;
  setShown: (key: string, shown: boolean) => void;
  /** Back to the table's defaults. */
  reset: () => void;
  /** Cells in a row: the shown columns, `lead` cells before them (e.g. a checkbox) and the pinned actions cell. */
  span: (lead?: number) => number;
}

const NO_CHOICE: Readonly<Record<string, boolean>> = {};

/**
 * The columns a table shows: each column's default (`hidden` ones are left out) unless the operator chose otherwise
 * in the table's column chooser. Only the operator's changes are stored, so a column added later gets its default.
 */
export function useTableColumns<Row>(table: string, columns: readonly Column<Row>[]): TableColumns<Row> {
  const choice = useColumnChoices((s) => s.tables[table]) ?? NO_CHOICE;
  const { choose, reset } = useColumnChoices.getState();
  const isShown = (key: string) => {
    const column = columns.find((c) => c.key === key);
    return !!column && (column.always || (choice[key] ?? !column.hidden));
  };
  const shown = columns.filter((c) => isShown(c.key));
  return {
    table,
    all: columns,
    shown,
    isShown,
    setShown: (key, on) => choose(table, key, on),
    reset: () => reset(table),
    span: (lead = 0) => lead + shown.length + 1,
  };
}

/** The header row: `lead` cells, the shown columns, then the pinned actions header with the column chooser. */
export function ColumnHeads<Row>({
  columns,
  lead,
  actions = true,
}: {
  columns: TableColumns<Row>;
  lead?: ReactNode;
  /** The rows have actions: the pinned header says so. */
  actions?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Table.Thead>
      <Table.Tr>
        {lead}
        {columns.shown.map((column) => (
          <Table.Th key={column.key} ta={column.align} visibleFrom={column.visibleFrom} data-column={column.key}>
            {column.label}
          </Table.Th>
        ))}
        <Table.Th className={classes.pinned} data-testid="table-actions-head">
          <Group gap={4} justify="flex-end" wrap="nowrap">
            {actions && <Text inherit>{t('common:actions.operations')}</Text>}
            <ColumnChooser columns={columns} />
          </Group>
        </Table.Th>
      </Table.Tr>
    </Table.Thead>
  );
}

/** A row's cells for the shown columns (the row adds its own lead and actions cells). */
export function ColumnCells<Row>({ columns, row }: { columns: TableColumns<Row>; row: Row }) {
  return columns.shown.map((column) => (
    <Table.Td
      key={column.key}
      ta={column.align}
      visibleFrom={column.visibleFrom}
      className={column.wrap ? undefined : classes.cell}
      data-wrap={column.wrap || undefined}
      {...column.td}
    >
      {column.cell(row)}
    </Table.Td>
  ));
}

/**
 * The last cell of a row, pinned to the table's right edge: the row's icon buttons, right-aligned. A click on it is
 * the button's alone (a row that ticks itself on click stays as it was).
 */
export function PinnedActionsCell({ children }: { children?: ReactNode }) {
  return (
    <Table.Td className={classes.pinned} onClick={(event) => event.stopPropagation()} data-testid="table-actions-cell">
      {children && (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          {children}
        </Group>
      )}
    </Table.Td>
  );
}

/**
 * The icon button (in the pinned header) that lets the operator choose a table's columns. Its menu's code loads on
 * the first click, so no page waits for it.
 */
export function ColumnChooser<Row>({ columns }: { columns: TableColumns<Row> }) {
  const { t } = useTranslation();
  const label = t('common:columns.choose');
  return (
    <MenuButton
      label={label}
      testId={`columns-${columns.table}`}
      icon={<IconColumns3 size={16} />}
      color="gray"
      size="sm"
      menu={({ opened, onChange, target }) => (
        <ColumnMenu columns={columns} label={label} opened={opened} onChange={onChange}>
          {target}
        </ColumnMenu>
      )}
    />
  );
}

/** Text kept to one line and cut with an ellipsis, the whole of it shown on hover. */
export function OneLine({ children, maw = '12rem', ...props }: { children: string } & Omit<TextProps, 'children'>) {
  return (
    <Text size="sm" truncate="end" maw={maw} title={children} {...props}>
      {children}
    </Text>
  );
}

/** The box a table sits in: as wide as the page gives it; a table widened past it (more columns) scrolls sideways. */
export function TableBox({ children }: { children: ReactNode }) {
  return (
    <Table.ScrollContainer minWidth={0} type="native" data-table-box="">
      {children}
    </Table.ScrollContainer>
  );
}
