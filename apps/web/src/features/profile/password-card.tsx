import { useState } from 'react';
import { Alert, Box, Button, Card, Group, Loader, PasswordInput, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { IconCircleCheck, IconCircleDashed, IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MAX, PASSWORD_MIN, type ModifyPasswordRequest } from '@sc/contracts';
import { post } from '@/api/request';
import { fieldErrors } from '@/api/field-errors';
import { notifySuccess } from '@/components/notify';
import { useLogout } from '@/auth/use-logout';

/** How long the success message shows before the console logs out and opens the sign-in page. */
export const LOGOUT_DELAY_MS = 1_500;

/** The server's password rule: 8 to 64 characters with at least one letter and one digit. */
const RULES = [
  { key: 'ruleLength', test: (p: string) => p.length >= PASSWORD_MIN && p.length <= PASSWORD_MAX },
  { key: 'ruleLetter', test: (p: string) => /[A-Za-z]/.test(p) },
  { key: 'ruleDigit', test: (p: string) => /\d/.test(p) },
] as const;

/**
 * POST /api/user/modifyPassword. On success every session of the user ends on the server; the page shows
 * 'Modified successfully, will redirect to login page and log in again', then logs out to the sign-in page.
 */
export function PasswordCard() {
  const { t } = useTranslation();
  const logout = useLogout();
  const [redirecting, setRedirecting] = useState(false);

  const form = useForm<ModifyPasswordRequest>({
    initialValues: { oldPassword: '', newPassword: '', confirmPassword: '' },
    validateInputOnBlur: true,
    validate: {
      oldPassword: (value) => (value ? null : t('messages:pleaseEnter')),
      newPassword: (value) => {
        if (!value) return t('messages:pleaseEnter');
        return RULES.every((rule) => rule.test(value)) ? null : t('messages:passwordRule', { min: PASSWORD_MIN, max: PASSWORD_MAX });
      },
      confirmPassword: (value, values) => {
        if (!value) return t('messages:pleaseEnter');
        return value === values.newPassword ? null : t('messages:passwordInconsistency');
      },
    },
  });

  const modify = useMutation({
    mutationFn: (values: ModifyPasswordRequest) => post<null>('/user/modifyPassword', values),
    onSuccess: () => {
      notifySuccess(t('messages:passwordModified'));
      setRedirecting(true);
      window.setTimeout(() => void logout(), LOGOUT_DELAY_MS);
    },
    // The toast already shows the message; field errors (e.g. a wrong current password) also go under their inputs.
    onError: (error) => form.setErrors(fieldErrors(error)),
  });

  const busy = modify.isPending || redirecting;
  const newPassword = form.values.newPassword;

  return (
    <Card withBorder radius="md" padding="lg" h="100%" data-testid="profile-password">
      <Stack gap="lg">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon size={40} radius="md" variant="light">
            <IconLock size={22} stroke={1.6} />
          </ThemeIcon>
          <div>
            <Title order={4}>{t('profile:password.title')}</Title>
            <Text size="sm" c="dimmed">
              {t('profile:password.description')}
            </Text>
          </div>
        </Group>

        <Box maw={520} w="100%">
          <form onSubmit={form.onSubmit((values) => modify.mutate(values))} noValidate>
            <Stack gap="md">
              <PasswordInput
                label={t('fields:oldPassword')}
                placeholder={t('profile:password.oldPlaceholder')}
                required
                name="oldPassword"
                autoComplete="current-password"
                maxLength={PASSWORD_MAX}
                disabled={redirecting}
                {...form.getInputProps('oldPassword')}
              />
              <div>
                <PasswordInput
                  label={t('fields:newPassword')}
                  placeholder={t('profile:password.newPlaceholder')}
                  required
                  name="newPassword"
                  autoComplete="new-password"
                  maxLength={PASSWORD_MAX}
                  disabled={redirecting}
                  {...form.getInputProps('newPassword')}
                />
                <Stack gap={2} mt={8} data-testid="password-rules">
                  {RULES.map((rule) => {
                    const met = rule.test(newPassword);
                    return (
                      <Group key={rule.key} gap={6} wrap="nowrap" data-met={met || undefined}>
                        {met ? (
                          <IconCircleCheck size={14} color="var(--mantine-color-teal-6)" />
                        ) : (
                          <IconCircleDashed size={14} color="var(--mantine-color-gray-5)" />
                        )}
                        <Text size="xs" c={met ? 'teal.7' : 'dimmed'}>
                          {t(`profile:password.${rule.key}`, { min: PASSWORD_MIN, max: PASSWORD_MAX })}
                        </Text>
                      </Group>
                    );
                  })}
                </Stack>
              </div>
              <PasswordInput
                label={t('fields:confirmPassword')}
                placeholder={t('profile:password.confirmPlaceholder')}
                required
                name="confirmPassword"
                autoComplete="new-password"
                maxLength={PASSWORD_MAX}
                disabled={redirecting}
                {...form.getInputProps('confirmPassword')}
              />
              {redirecting && (
                <Alert color="teal" variant="light" icon={<Loader size={16} color="teal" />} data-testid="password-redirecting">
                  <Text size="sm">{t('messages:passwordModified')}</Text>
                  <Text size="xs" c="dimmed">
                    {t('profile:password.redirecting')}
                  </Text>
                </Alert>
              )}
              <Group justify="flex-start">
                <Button type="submit" loading={busy} disabled={redirecting} leftSection={<IconLock size={16} />} data-testid="password-save">
                  {t('profile:password.submit')}
                </Button>
              </Group>
            </Stack>
          </form>
        </Box>
      </Stack>
    </Card>
  );
}
