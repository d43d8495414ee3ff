import { Alert, Button, Group, Modal, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconInfoCircle, IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MAX, PASSWORD_MIN, type UserRow } from '@sc/contracts';
import { fieldErrors } from '@/api/field-errors';
import { notifySuccess } from '@/components/notify';
import { useIsMobile } from '@/layout/use-is-mobile';
import { useUpdateUser } from './api';

/** An administrator sets a new password for a user; the server ends every session of that user. */
export function ResetPasswordModal({ opened, user, onClose }: { opened: boolean; user: UserRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  return (
    <Modal opened={opened} onClose={onClose} title={t('system:users.resetPasswordOf', { name: user?.username ?? '' })} fullScreen={isMobile}>
      {user && <ResetPasswordForm user={user} onClose={onClose} />}
    </Modal>
  );
}

function ResetPasswordForm({ user, onClose }: { user: UserRow; onClose: () => void }) {
  const { t } = useTranslation();
  const update = useUpdateUser();
  const form = useForm({
    initialValues: { password: '', confirmPassword: '' },
    validate: {
      password: (v) => (v ? null : t('messages:pleaseEnter')),
      confirmPassword: (v, values) => (!v ? t('messages:pleaseEnter') : v !== values.password ? t('messages:passwordInconsistency') : null),
    },
  });

  const submit = form.onSubmit(async ({ password }) => {
    try {
      await update.mutateAsync({ id: user.id, password });
      notifySuccess(t('system:users.passwordReset'));
      onClose();
    } catch (error) {
      form.setErrors(fieldErrors(error));
    }
  });

  return (
    <form onSubmit={submit} noValidate data-testid="reset-password-modal">
      <Stack gap="md">
        <Alert variant="light" color="orange" icon={<IconInfoCircle size={18} />} p="sm">
          {t('system:users.resetPasswordHint')}
        </Alert>
        <PasswordInput
          label={t('fields:newPassword')}
          name="password"
          leftSection={<IconLock size={16} />}
          maxLength={PASSWORD_MAX}
          withAsterisk
          autoComplete="new-password"
          data-autofocus
          description={t('system:users.passwordHint', { min: PASSWORD_MIN, max: PASSWORD_MAX })}
          {...form.getInputProps('password')}
        />
        <PasswordInput
          label={t('fields:confirmPassword')}
          name="confirmPassword"
          leftSection={<IconLock size={16} />}
          maxLength={PASSWORD_MAX}
          withAsterisk
          autoComplete="new-password"
          {...form.getInputProps('confirmPassword')}
        />
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={onClose} disabled={update.isPending}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="submit" loading={update.isPending} data-testid="user-reset-save">
            {t('common:actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
