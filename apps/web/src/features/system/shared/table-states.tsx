import { Button, Center, Loader, Stack, Table, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconDatabaseOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Column headers stay on one line; narrow screens scroll the table sideways instead. */
export const TABLE_STYLES = { th: { whiteSpace: 'nowrap' } } as const;

/**
 * The single row a table shows while its first page loads, when the call failed, or when nothing matches.
 * Nothing is rendered once there are rows (later refetches keep the rows on screen).
 */
export function TableStatusRow({
  colSpan,
  loading,
  failed,
  empty,
  filtered,
  onRetry,
}: {
  colSpan: number;
  loading: boolean;
  failed: boolean;
  empty: boolean;
  /** Filters are in use: the empty state suggests changing them. */
  filtered?: boolean;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  if (!loading && !failed && !empty) return null;
  let content;
  if (loading) {
    content = (
      <Stack align="center" gap="xs">
        <Loader size="sm" />
        <Text size="sm" c="dimmed">
          {t('common:feedback.loading')}
        </Text>
      </Stack>
    );
  } else if (failed) {
    content = (
      <Stack align="center" gap="xs">
        <ThemeIcon variant="light" color="red" size="lg" radius="xl">
          <IconAlertTriangle size={18} />
        </ThemeIcon>
        <Text size="sm" c="dimmed">
          {t('system:shared.loadFailed')}
        </Text>
        <Button size="xs" variant="light" onClick={onRetry}>
          {t('system:shared.retry')}
        </Button>
      </Stack>
    );
  } else {
    content = (
      <Stack align="center" gap={4}>
        <ThemeIcon variant="light" color="gray" size="lg" radius="xl">
          <IconDatabaseOff size={18} />
        </ThemeIcon>
        <Text size="sm" c="dimmed">
          {filtered ? t('system:shared.noMatch') : t('common:feedback.noData')}
        </Text>
        {filtered && (
          <Text size="xs" c="dimmed">
            {t('system:shared.noMatchHint')}
          </Text>
        )}
      </Stack>
    );
  }
  return (
    <Table.Tr data-testid="table-status" data-status={loading ? 'loading' : failed ? 'failed' : 'empty'}>
      <Table.Td colSpan={colSpan}>
        <Center py="xl">{content}</Center>
      </Table.Td>
    </Table.Tr>
  );
}
