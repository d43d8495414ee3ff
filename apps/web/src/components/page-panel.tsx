import { useState, type ReactNode } from 'react';
import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconFilter, IconRotateClockwise, IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useIsMobile } from '@/layout/use-is-mobile';

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

/**
 * A row of filters above a table, ending with Search (submit) and Reset; wraps on narrow screens. On a phone the filters
 * fold behind a Filters button (`<testId>-toggle`), so the list starts on the first screen; a search folds them again.
 */
export function FilterBar({
  children,
  onSubmit,
  onReset,
  testId,
}: {
  children: ReactNode;
  onSubmit: () => void;
  onReset: () => void;
  /** Prefix of the buttons' test ids: `<testId>-search` and `<testId>-reset-filters`. */
  testId: string;
}) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const [unfolded, setUnfolded] = useState(false);
  const form = (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        setUnfolded(false);
        onSubmit();
      }}
    >
      <Group gap="sm" align="flex-end" wrap="wrap">
        {children}
        <Group gap="xs">
          <Button type="submit" leftSection={<IconSearch size={16} />} data-testid={`${testId}-search`}>
            {t('common:actions.search')}
          </Button>
          <Button variant="default" leftSection={<IconRotateClockwise size={16} />} onClick={onReset} data-testid={`${testId}-reset-filters`}>
            {t('common:actions.reset')}
          </Button>
        </Group>
      </Group>
    </form>
  );
  if (!mobile) return form;
  return (
    <Stack gap="xs">
      <Button
        variant="default"
        leftSection={<IconFilter size={16} />}
        rightSection={unfolded ? <IconChevronUp size={16} /> : <IconChevronDown size={16} />}
        onClick={() => setUnfolded((open) => !open)}
        aria-expanded={unfolded}
        data-testid={`${testId}-toggle`}
        w="fit-content"
      >
        {t('common:actions.filters')}
      </Button>
      {unfolded && form}
    </Stack>
  );
}
