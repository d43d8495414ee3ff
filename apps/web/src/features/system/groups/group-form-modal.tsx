import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Input,
  Modal,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconInfoCircle, IconShieldCheck, IconUsersGroup } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { GROUP_NAME_MAX, type GroupRow } from '@sc/contracts';
import { fieldErrors } from '@/api/field-errors';
import { notifySuccess } from '@/components/notify';
import { useButtonLabel, usePermissionLabel } from '../shared/permissions';
import { useIsMobile } from '@/layout/use-is-mobile';
import { usePermissionMenu, useSaveGroup } from './api';

const REMARK_MAX = 255;

interface Values {
  groupName: string;
  isAdmin: '0' | '1';
  permissionMenu: string[];
  remark: string;
}

/** Adds a role (`group` null) or edits one: name, administrator or general, permission menu, remark. */
export function GroupFormModal({
  opened,
  group,
  defaultAdmin,
  onClose,
  onSaved,
}: {
  opened: boolean;
  group: GroupRow | null;
  /** Type of a new role: the tab it was added from. */
  defaultAdmin: boolean;
  onClose: () => void;
  /** Called with the saved role's type, so the page can show the tab it is in. */
  onSaved: (isAdmin: boolean) => void;
}) {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  return (
    <Modal opened={opened} onClose={onClose} title={group ? t('system:groups.edit') : t('system:groups.add')} size="xl" fullScreen={isMobile}>
      <GroupForm group={group} defaultAdmin={defaultAdmin} onClose={onClose} onSaved={onSaved} />
    </Modal>
  );
}

function GroupForm({
  group,
  defaultAdmin,
  onClose,
  onSaved,
}: {
  group: GroupRow | null;
  defaultAdmin: boolean;
  onClose: () => void;
  onSaved: (isAdmin: boolean) => void;
}) {
  const { t } = useTranslation();
  const menu = usePermissionMenu();
  const save = useSaveGroup();
  const permissionLabel = usePermissionLabel();
  const buttonLabel = useButtonLabel();

  const form = useForm<Values>({
    initialValues: {
      groupName: group?.groupName ?? '',
      isAdmin: (group ? group.isAdmin === 1 : defaultAdmin) ? '1' : '0',
      permissionMenu: group?.permissionMenu ?? [],
      remark: group?.remark ?? '',
    },
    validate: {
      groupName: (v) => (v.trim() ? null : t('messages:enterGroupName')),
    },
  });
  const admin = form.values.isAdmin === '1';

  const submit = form.onSubmit(async (values) => {
    try {
      await save.mutateAsync({
        id: group?.id,
        groupName: values.groupName.trim(),
        isAdmin: values.isAdmin === '1' ? 1 : 0,
        // Administrators have everything; the server stores no menu for them.
        permissionMenu: values.isAdmin === '1' ? [] : values.permissionMenu,
        remark: values.remark.trim(),
      });
      notifySuccess(t(group ? 'common:feedback.updated' : 'common:feedback.created'));
      onSaved(values.isAdmin === '1');
      onClose();
    } catch (error) {
      form.setErrors(fieldErrors(error));
    }
  });

  return (
    <form onSubmit={submit} noValidate data-testid="group-modal">
      <Stack gap="md">
        <TextInput
          label={t('fields:groupName')}
          name="groupName"
          leftSection={<IconUsersGroup size={16} />}
          maxLength={GROUP_NAME_MAX}
          withAsterisk
          data-autofocus
          autoComplete="off"
          {...form.getInputProps('groupName')}
        />
        <Input.Wrapper label={t('fields:isAdmin')} error={form.errors.isAdmin}>
          <SegmentedControl
            fullWidth
            mt={4}
            data={[
              { value: '1', label: t('system:roleType.admin') },
              { value: '0', label: t('system:roleType.general') },
            ]}
            data-testid="group-type"
            {...form.getInputProps('isAdmin')}
          />
        </Input.Wrapper>
        <Input.Wrapper
          label={t('fields:permissionMenu')}
          description={admin ? undefined : t('system:groups.permissionMenuHint')}
          error={form.errors.permissionMenu}
        >
          {admin ? (
            <Alert mt={6} variant="light" color="grape" icon={<IconShieldCheck size={18} />} p="sm">
              {t('system:groups.adminMenuHint')}
            </Alert>
          ) : menu.isPending ? (
            <Stack gap="xs" mt={6}>
              <Skeleton h={64} />
              <Skeleton h={64} />
              <Skeleton h={64} />
            </Stack>
          ) : (
            <Checkbox.Group {...form.getInputProps('permissionMenu')}>
              <SimpleGrid cols={1} spacing="xs" mt={6}>
                {(menu.data ?? []).map((item) => (
                  <Checkbox.Card key={item.name} value={item.name} radius="md" p="sm" data-testid={`permission-${item.name}`}>
                    <Group wrap="nowrap" align="flex-start" gap="sm">
                      <Checkbox.Indicator mt={2} />
                      <Stack gap={4} miw={0}>
                        <Group gap={8}>
                          <Text fw={600} size="sm">
                            {permissionLabel(item.name)}
                          </Text>
                          <Text size="xs" c="dimmed">
                            {t(`system:permissionHints.${item.name}`, { defaultValue: '' })}
                          </Text>
                        </Group>
                        <Group gap={4} wrap="wrap">
                          {item.buttons.map((button) => (
                            <Badge key={button} size="sm" variant="default" radius="sm" tt="none" fw={500}>
                              {buttonLabel(button)}
                            </Badge>
                          ))}
                        </Group>
                      </Stack>
                    </Group>
                  </Checkbox.Card>
                ))}
              </SimpleGrid>
            </Checkbox.Group>
          )}
        </Input.Wrapper>
        <Textarea
          label={t('fields:remark')}
          name="remark"
          placeholder={t('system:groups.remarkPlaceholder')}
          autosize
          minRows={2}
          maxRows={5}
          maxLength={REMARK_MAX}
          {...form.getInputProps('remark')}
        />
        {!admin && form.values.permissionMenu.length === 0 && (
          <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />} p="xs">
            <Text size="xs">{t('system:groups.noPermissionHint')}</Text>
          </Alert>
        )}
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="group-save">
            {t('common:actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
