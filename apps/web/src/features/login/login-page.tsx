import { useState } from 'react';
import { Box, Button, Center, Group, Menu, Paper, PasswordInput, Stack, Text, TextInput, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconBuildingCommunity, IconLanguage, IconLock, IconUser } from '@tabler/icons-react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { session } from '@/auth/session-store';
import { currentLanguage, switchLanguage } from '@/i18n';
import { LANGUAGE_NAMES, UI_LANGUAGES } from '@/i18n/languages';
import { safeRedirect } from '@/auth/return-to';
import { ROUTE_TABLE } from '@/navigation/route-table';
import { isForbidden } from '@/navigation/permitted-routes';
import classes from './login.module.css';

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { redirect } = useSearch({ from: '/login' });
  const [busy, setBusy] = useState(false);
  const [capsLock, setCapsLock] = useState(false);
  const form = useForm({
    initialValues: { username: '', password: '' },
    validate: {
      username: (v) => (v.trim() ? null : t('messages:pleaseEnter')),
      password: (v) => (v ? null : t('messages:pleaseEnter')),
    },
  });

  const submit = form.onSubmit(async ({ username, password }) => {
    setBusy(true);
    try {
      await session.login(username, password);
      let target = safeRedirect(redirect);
      // The page in `redirect` may have been left by someone else on this workstation: a page this user may not open
      // would only show /401, so they start from the home page instead.
      const roles = await session
        .loadInfo()
        .then((s) => s.roles)
        .catch(() => null);
      if (roles && isForbidden(ROUTE_TABLE, target.split('?')[0], roles)) target = '/';
      await navigate({ href: target, replace: true });
    } catch {
      // The refusal is already on screen (api/request.ts).
    } finally {
      setBusy(false);
    }
  });

  return (
    <Box className={classes.page}>
      <Group className={classes.topBar} justify="flex-end">
        <Menu position="bottom-end">
          <Menu.Target>
            <UnstyledButton c="white" data-testid="login-language">
              <Group gap={6}>
                <IconLanguage size={18} />
                <Text size="sm">{LANGUAGE_NAMES[currentLanguage()]}</Text>
              </Group>
            </UnstyledButton>
          </Menu.Target>
          <Menu.Dropdown>
            {UI_LANGUAGES.map((lng) => (
              <Menu.Item key={lng} onClick={() => switchLanguage(lng)} data-testid={`language-${lng}`}>
                {LANGUAGE_NAMES[lng]}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      </Group>
      <Center className={classes.center}>
        <Paper className={classes.card} shadow="xl" radius="md" p="xl" withBorder>
          <Stack gap="lg">
            <Stack gap={6} align="center">
              <ThemeIcon size={52} radius="md" variant="filled">
                <IconBuildingCommunity size={30} />
              </ThemeIcon>
              <Title order={2} ta="center">
                {t('common:login.title')}
              </Title>
              <Text size="sm" c="dimmed" ta="center">
                {t('common:login.subtitle')}
              </Text>
            </Stack>
            <form onSubmit={submit} noValidate>
              <Stack gap="md">
                <TextInput
                  label={t('common:login.username')}
                  leftSection={<IconUser size={16} />}
                  autoComplete="username"
                  autoFocus
                  size="md"
                  name="username"
                  {...form.getInputProps('username')}
                />
                <PasswordInput
                  label={t('common:login.password')}
                  leftSection={<IconLock size={16} />}
                  autoComplete="current-password"
                  size="md"
                  name="password"
                  onKeyUp={(event) => setCapsLock(event.getModifierState('CapsLock'))}
                  description={capsLock ? t('common:login.capsLock') : undefined}
                  {...form.getInputProps('password')}
                />
                <Button type="submit" size="md" fullWidth loading={busy} data-testid="login-submit">
                  {t('common:login.submit')}
                </Button>
              </Stack>
            </form>
          </Stack>
        </Paper>
      </Center>
    </Box>
  );
}
