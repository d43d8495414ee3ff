import type { ReactNode } from 'react';
import { Group, Paper, Stack, Title } from '@mantine/core';

/** The frame every console page uses: a title row with the page's actions, then its content. */
export function PagePanel({ title, actions, children }: { title: ReactNode; actions?: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', md: 'lg' }} shadow="xs">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Title order={4}>{title}</Title>
          {actions && <Group gap="xs">{actions}</Group>}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}

/** A row of filters above a table; wraps on narrow screens. */
export function FilterBar({ children, onSubmit }: { children: ReactNode; onSubmit: () => void }) {
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <Group gap="sm" align="flex-end" wrap="wrap">
        {children}
      </Group>
    </form>
  );
}
