import type { ReactNode } from 'react';
import { Button, Checkbox, Group, Popover, ScrollArea, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TableColumns } from './table-columns';

/** The column chooser's menu around its button (`children`): a checkbox per column, and Default columns. */
export function ColumnMenu<Row>({
  columns,
  label,
  opened,
  onChange,
  children,
}: {
  columns: TableColumns<Row>;
  label: string;
  opened: boolean;
  onChange: (opened: boolean) => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Popover opened={opened} onChange={onChange} position="bottom-end" shadow="md" withinPortal trapFocus>
      <Popover.Target>{children}</Popover.Target>
      <Popover.Dropdown data-testid={`columns-${columns.table}-menu`}>
        <Group justify="space-between" gap="md" mb="xs" wrap="nowrap">
          <Text size="xs" c="dimmed" fw={500}>
            {label}
          </Text>
          <Button size="compact-xs" variant="subtle" onClick={columns.reset} data-testid={`columns-${columns.table}-reset`}>
            {t('common:columns.reset')}
          </Button>
        </Group>
        <ScrollArea.Autosize mah="50vh" type="auto" offsetScrollbars>
          <Stack gap="xs">
            {columns.all
              .filter((column) => !column.always)
              .map((column) => (
                <Checkbox
                  key={column.key}
                  size="xs"
                  label={column.label}
                  checked={columns.isShown(column.key)}
                  onChange={(event) => columns.setShown(column.key, event.currentTarget.checked)}
                  data-testid={`column-${column.key}`}
                />
              ))}
          </Stack>
        </ScrollArea.Autosize>
      </Popover.Dropdown>
    </Popover>
  );
}
