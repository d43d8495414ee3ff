import { Box, Card, Container, Group, SimpleGrid, Stack, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { IconArrowRight, IconBuildingCommunity, IconCircleDot } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/auth/session-store';
import { landingPath } from '@/navigation/permitted-routes';
import { usePermittedRoutes } from '@/layout/use-menu';
import { useLogout } from '@/auth/use-logout';
import classes from './entry.module.css';

/** /entry: the platform's areas as tiles, only those the user may open (spec section 2). */
export function EntryPage() {
  const { t } = useTranslation();
  const name = useSession((s) => s.name);
  const roles = useSession((s) => s.roles);
  const routes = usePermittedRoutes();
  const logout = useLogout();
  const tiles = routes
    .filter((entry) => !entry.hidden)
    .flatMap((entry) => {
      const path = landingPath(entry, roles);
      return path ? [{ entry, path }] : [];
    });
  return (
    <Box className={classes.page}>
      <Container size="lg" py={48}>
        <Group justify="space-between" mb={40}>
          <Group gap="sm">
            <ThemeIcon size={44} radius="md">
              <IconBuildingCommunity size={26} />
            </ThemeIcon>
            <div>
              <Title order={2} c="white">
                {t('common:login.title')}
              </Title>
              <Text c="gray.4">{t('common:entry.welcome', { name })}</Text>
            </div>
          </Group>
          <UnstyledButton c="gray.3" onClick={() => void logout()} data-testid="entry-logout">
            {t('common:nav.logout')}
          </UnstyledButton>
        </Group>
        <Text c="gray.3" mb="md">
          {t('common:entry.hint')}
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 4 }} spacing="lg" data-testid="entry-tiles">
          {tiles.map(({ entry, path }) => {
            const Icon = entry.icon ?? IconCircleDot;
            return (
              <Card key={entry.path} component={Link} to={path} className={classes.tile} radius="md" padding="lg" data-testid={`tile-${entry.path}`}>
                <Stack gap="md">
                  <ThemeIcon size={48} radius="md" variant="light">
                    <Icon size={28} stroke={1.6} />
                  </ThemeIcon>
                  <Group justify="space-between" wrap="nowrap">
                    <Text fw={600} size="lg">
                      {t(`common:route.${entry.title}`)}
                    </Text>
                    <IconArrowRight size={18} />
                  </Group>
                </Stack>
              </Card>
            );
          })}
        </SimpleGrid>
      </Container>
    </Box>
  );
}
