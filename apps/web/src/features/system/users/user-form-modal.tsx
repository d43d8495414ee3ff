import { Button, Group, Modal, PasswordInput, Select, Stack, Switch, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconLock, IconUser, IconUsersGroup } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useGroupOptions } from './group-options';
import { PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX, type GroupRow, type UserRow } from '@sc/contracts';
import { fieldErrors } from '@/api/field-errors';
import { notifySuccess } from '@/components/notify';
import { useIsMobile } from '@/layout/use-is-mobile';
import { useCreateUser, useUpdateUser } from './api';

interface Values {
  username: string;
  password: string;
  confirmPassword: string;
  groupId: string | null;
  enabled: boolean;
  introduction: string;
}

const INTRODUCTION_MAX = 255;

/** Creates a user (`user` null) or edits one's group and introduction. */
export function UserFormModal({
  opened,
  user,
  groups,
  groupsLoading,
  onClose,
}: {
  opened: boolean;
  user: UserRow | null;
  groups: readonly GroupRow[];
  groupsLoading: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  return (
    <Modal opened={opened} onClose={onClose} title={user ? t('system:users.edit') : t('system:users.add')} size="lg" fullScreen={isMobile}>
      {/* Mounted per opening, so the form starts from the chosen user every time. */}
      <UserForm user={user} groups={groups} groupsLoading={groupsLoading} onClose={onClose} />
    </Modal>
  );
}

function UserForm({
  user,
  groups,
  groupsLoading,
  onClose,
}: {
  user: UserRow | null;
  groups: readonly GroupRow[];
  groupsLoading: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const creating = user === null;
  const create = useCreateUser();
  const update = useUpdateUser();
  const groupOptions = useGroupOptions(groups);

  const form = useForm<Values>({
    initialValues: {
      username: user?.username ?? '',
      password: '',
      confirmPassword: '',
      groupId: user ? String(user.groupId) : null,
      enabled: user?.enabled ?? true,
      introduction: user?.introduction ?? '',
    },
    validate: {
      username: (v) => (creating && !v.trim() ? t('messages:pleaseEnter') : null),
      password: (v) => (creating && !v ? t('messages:pleaseEnter') : null),
      confirmPassword: (v, values) =>
        !creating ? null : !v ? t('messages:pleaseEnter') : v !== values.password ? t('messages:passwordInconsistency') : null,
      groupId: (v) => (v ? null : t('messages:selectGroup')),
    },
  });

  const busy = create.isPending || update.isPending;

  const submit = form.onSubmit(async (values) => {
    try {
      if (creating) {
        await create.mutateAsync({
          username: values.username.trim(),
          password: values.password,
          groupId: Number(values.groupId),
          enabled: values.enabled,
          introduction: values.introduction.trim(),
        });
        notifySuccess(t('common:feedback.created'));
      } else {
        await update.mutateAsync({ id: user.id, groupId: Number(values.groupId), introduction: values.introduction.trim() });
        notifySuccess(t('common:feedback.updated'));
      }
      onClose();
    } catch (error) {
      // The toast is already up; the rejected fields are marked under their inputs as well.
      form.setErrors(fieldErrors(error));
    }
  });

  return (
    <form onSubmit={submit} noValidate data-testid="user-modal">
      <Stack gap="md">
        <TextInput
          label={t('fields:username')}
          name="username"
          leftSection={<IconUser size={16} />}
          maxLength={USERNAME_MAX}
          withAsterisk={creating}
          disabled={!creating}
          autoComplete="off"
          data-autofocus={creating || undefined}
          {...form.getInputProps('username')}
        />
        {creating && (
          <>
            <PasswordInput
              label={t('fields:password')}
              name="password"
              leftSection={<IconLock size={16} />}
              maxLength={PASSWORD_MAX}
              withAsterisk
              autoComplete="new-password"
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
          </>
        )}
        <Select
          label={t('fields:groupId')}
          name="groupId"
          data-testid="user-group"
          leftSection={<IconUsersGroup size={16} />}
          data={groupOptions}
          withAsterisk
          searchable
          nothingFoundMessage={t('common:feedback.noData')}
          placeholder={t('messages:pleaseSelect')}
          disabled={groupsLoading && groups.length === 0}
          comboboxProps={{ withinPortal: true }}
          data-autofocus={!creating || undefined}
          {...form.getInputProps('groupId')}
        />
        <Textarea
          label={t('fields:introduction')}
          name="introduction"
          placeholder={t('system:users.introductionPlaceholder')}
          autosize
          minRows={2}
          maxRows={5}
          maxLength={INTRODUCTION_MAX}
          {...form.getInputProps('introduction')}
        />
        {creating && <Switch label={t('system:users.enableNow')} name="enabled" {...form.getInputProps('enabled', { type: 'checkbox' })} />}
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={onClose} disabled={busy}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="submit" loading={busy} data-testid="user-save">
            {t('common:actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
