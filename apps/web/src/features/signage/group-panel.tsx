import { lazy } from 'react';
import { ActionIcon, Badge, Group, NavLink, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, SIGNAGE_GROUP_NAME_MAX, type SignageGroupRow } from '@sc/contracts';
import { useButton } from '@/auth/session-store';
import { deleteAfterConfirm } from '@/components/confirm';
import { Deferred } from '@/components/deferred';
import { useFormDialog } from '@/components/form-actions';
import { IconAction } from '@/components/row-actions';
import { useDeleteSignageGroup, useSaveSignageGroup, useSignageGroups } from './api';

// The add and rename dialog loads when it is first opened, not with the page.
const GroupNameDialog = lazy(() => import('@/components/group-name-dialog').then((m) => ({ default: m.GroupNameDialog<SignageGroupRow> })));

/**
 * The floor-screen groups with their player counts: choosing one lists its players ('All' and 'No group' too); add,
 * rename and delete (refused by the server while the group has players, with its message).
 */
export function SignageGroupPanel({ groupId, onChoose }: { groupId: number | undefined; onChoose: (groupId: number | undefined) => void }) {
  const { t } = useTranslation();
  const groups = useSignageGroups();
  const remove = useDeleteSignageGroup();
  const save = useSaveSignageGroup();
  const dialog = useFormDialog<SignageGroupRow>();
  const canAdd = useButton(ButtonPermission.Add);
  const canEdit = useButton(ButtonPermission.Edit);
  const canDelete = useButton(ButtonPermission.Delete);
  const list = groups.data ?? [];
  return (
    <Paper withBorder p="md" radius="md" data-testid="signage-groups">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={5}>{t('signage:groups.title')}</Title>
          {canAdd && (
            <Tooltip label={t('signage:groups.add')}>
              <ActionIcon variant="light" onClick={() => dialog.open(null)} aria-label={t('signage:groups.add')} data-testid="signage-group-add">
                <IconPlus size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
        <NavLink label={t('signage:groups.all')} active={groupId === undefined} onClick={() => onChoose(undefined)} data-testid="signage-group-all" />
        <NavLink label={t('signage:groups.none')} active={groupId === 0} onClick={() => onChoose(0)} data-testid="signage-group-none" />
        {list.length === 0 && !groups.isLoading && (
          <Text size="sm" c="dimmed">
            {t('signage:groups.empty')}
          </Text>
        )}
        {list.map((group) => (
          <Group key={group.id} gap={4} wrap="nowrap" data-testid={`signage-group-${group.name}`}>
            <NavLink
              style={{ flex: 1 }}
              label={group.name}
              active={groupId === group.id}
              onClick={() => onChoose(group.id)}
              rightSection={
                <Badge variant="light" size="sm" data-testid="signage-group-count">
                  {t('signage:groups.counts', { online: group.onlineCount, count: group.deviceCount })}
                </Badge>
              }
            />
            {canEdit && (
              <IconAction label={t('signage:groups.edit')} onClick={() => dialog.open(group)} testId="signage-group-edit">
                <IconEdit size={16} />
              </IconAction>
            )}
            {canDelete && (
              <IconAction
                label={t('common:actions.delete')}
                color="red"
                testId="signage-group-delete"
                onClick={() =>
                  void deleteAfterConfirm(
                    t('signage:groups.deleteDetail', { name: group.name }),
                    async () => {
                      await remove.mutateAsync(group.id);
                      if (groupId === group.id) onChoose(undefined);
                    },
                    t('common:feedback.deleted'),
                  )
                }
              >
                <IconTrash size={16} />
              </IconAction>
            )}
          </Group>
        ))}
      </Stack>
      <Deferred when={dialog.opened}>
        <GroupNameDialog
          group={dialog.row}
          opened={dialog.opened}
          onClose={dialog.close}
          save={(body) => save.mutateAsync(body)}
          busy={save.isPending}
          title={t(dialog.row ? 'signage:groups.edit' : 'signage:groups.add')}
          label={t('signage:groups.name')}
          maxLength={SIGNAGE_GROUP_NAME_MAX}
          updated={t('signage:groups.updated')}
          testId="signage-group-form"
        />
      </Deferred>
    </Paper>
  );
}
