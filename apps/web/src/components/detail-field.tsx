import type { ReactNode } from 'react';
import { Stack, Text } from '@mantine/core';

/** One labelled value of a device's details; an empty value shows as a dash. */
export function DetailField({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Stack gap={0} data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children === '' || children === null || children === undefined ? '—' : children}
      </Text>
    </Stack>
  );
}
