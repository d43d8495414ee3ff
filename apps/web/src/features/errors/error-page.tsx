import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';

/** /404 and /401 (spec section 2). */
export function ErrorPage({ kind }: { kind: 'notFound' | 'unauthorized' }) {
  const { t } = useTranslation();
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" gap="sm" maw={520}>
        <Text fz={96} fw={800} c="brand" lh={1} data-testid="error-code">
          {kind === 'notFound' ? 404 : 401}
        </Text>
        <Title order={2} ta="center">
          {t(kind === 'notFound' ? 'common:errors.notFoundTitle' : 'common:errors.unauthorizedTitle')}
        </Title>
        <Text c="dimmed" ta="center">
          {t(kind === 'notFound' ? 'common:errors.notFoundText' : 'common:errors.unauthorizedText')}
        </Text>
        <Button component={Link} to="/" mt="md">
          {t('common:actions.backHome')}
        </Button>
      </Stack>
    </Center>
  );
}
