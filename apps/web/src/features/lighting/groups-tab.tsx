import { useState } from 'react';
import { ActionIcon, Button, Group, Modal, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { Select } from '@/components/select';
import { IconArrowsTransferDown, IconEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, DEVICE_GROUP_NAME_MAX, DeviceType, type DeviceGroupRow } from '@sc/contracts';
import { confirmDelete } from '@/components/confirm';
import { notifySuccess } from '@/components/notify';
import { fieldErrors } from '@/api/field-errors';
import { useButton } from '@/auth/session-store';
import { useDeleteGroup, useGroups, useMoveToGroup, useSaveGroup } from './equipment-api';

const TYPE = DeviceType.SingleLamp;

function GroupNameModal({ group, opened, onClose }: { group: DeviceGroupRow | null; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveGroup();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [shownFor, setShownFor] = useState<{ opened: boolean; group: DeviceGroupRow | null } | null>(null);
  if (shownFor?.opened !== opened || shownFor.group !== group) {
    setShownFor({ opened, group });
    setName(group?.name ?? '');
    setError(undefined);
  }
  const submit = async () => {
    if (!name.trim()) return setError(t('messages:enterGroupName'));
    try {
      await save.mutateAsync({ ...(group ? { id: group.id } : {}), type: TYPE, name: name.trim() });
      notifySuccess(t(group ? 'common:feedback.updated' : 'common:feedback.created'));
      onClose();
    } catch (err) {
      setError(fieldErrors(err).name);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t(group ? 'lighting:equipment.renameGroup' : 'lighting:equipment.addGroup')}>
      <form
        noValidate
        data-testid="group-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack>
          <TextInput
            label={t('lighting:fields.groupName')}
            required
            maxLength={DEVICE_GROUP_NAME_MAX}
            name="name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={error}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common:actions.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} data-testid="group-save">
              {t('common:actions.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * Moves every lamp of one group into another. The source list offers every group: picking an empty one says
 * 'This group has no devices and cannot be selected'; a target is required ('Please select a group').
 */
function MoveAllModal({ groups, opened, onClose }: { groups: DeviceGroupRow[]; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const move = useMoveToGroup();
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [wasOpened, setWasOpened] = useState(opened);
  if (wasOpened !== opened) {
    setWasOpened(opened);
    setFrom(null);
    setTo(null);
    setErrors({});
  }
  const pickSource = (value: string | null) => {
    const group = groups.find((g) => String(g.id) === value);
    if (group && group.deviceCount === 0) {
      setErrors({ fromGroupId: t('messages:emptyGroupNotSelectable') });
      return;
    }
    setErrors({});
    setFrom(value);
  };
  const submit = async () => {
    const problems = { fromGroupId: from ? undefined : t('messages:pleaseSelect'), groupId: to ? undefined : t('messages:selectGroup') };
    if (problems.fromGroupId || problems.groupId) return setErrors(problems);
    try {
      const { moved } = await move.mutateAsync({ type: TYPE, fromGroupId: Number(from), groupId: Number(to) });
      notifySuccess(t('lighting:equipment.movedCount', { count: moved }));
      onClose();
    } catch (err) {
      setErrors(fieldErrors(err));
    }
  };
  const options = groups.map((g) => ({ value: String(g.id), label: `${g.name} (${g.deviceCount})` }));
  return (
    <Modal opened={opened} onClose={onClose} title={t('lighting:equipment.moveGroupDevices')}>
      <form
        noValidate
        data-testid="move-all-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack>
          <Select
            label={t('lighting:equipment.sourceGroup')}
            required
            data={options}
            value={from}
            onChange={pickSource}
            error={errors.fromGroupId}
            data-testid="move-all-source"
          />
          <Select
            label={t('lighting:equipment.targetGroup')}
            required
            data={options.filter((o) => o.value !== from)}
            value={to}
            onChange={setTo}
            error={errors.groupId}
            data-testid="move-all-target"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common:actions.cancel')}
            </Button>
            <Button type="submit" loading={move.isPending} data-testid="move-all-submit">
              {t('common:actions.confirm')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Device groups of single lamps: add, rename, delete (only empty ones), and moving a whole group's lamps. */
export function GroupsTab({ onOpenLamps }: { onOpenLamps: (groupId: number) => void }) {
  const { t } = useTranslation();
  const groups = useGroups(TYPE);
  const remove = useDeleteGroup();
  const canAdd = useButton(ButtonPermission.Add);
  const canEdit = useButton(ButtonPermission.Edit);
  const canDelete = useButton(ButtonPermission.Delete);
  const [form, setForm] = useState<{ opened: boolean; group: DeviceGroupRow | null }>({ opened: false, group: null });
  const [moving, setMoving] = useState(false);
  const rows = groups.data ?? [];
  const del = async (group: DeviceGroupRow) => {
    if (!(await confirmDelete(group.name))) return;
    try {
      await remove.mutateAsync({ id: group.id, type: TYPE });
      notifySuccess(t('common:feedback.deleted'));
    } catch {
      // The refusal is already on screen.
    }
  };
  return (
    <>
      <Group gap="xs" mb="sm">
        {canAdd && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setForm({ opened: true, group: null })} data-testid="group-add">
            {t('lighting:equipment.addGroup')}
          </Button>
        )}
        {canEdit && (
          <Button variant="default" leftSection={<IconArrowsTransferDown size={16} />} onClick={() => setMoving(true)} data-testid="group-move-all">
            {t('lighting:equipment.moveGroupDevices')}
          </Button>
        )}
      </Group>
      <Table striped data-testid="group-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('lighting:fields.groupName')}</Table.Th>
            <Table.Th>{t('lighting:equipment.lamps')}</Table.Th>
            {(canEdit || canDelete) && <Table.Th ta="right">{t('common:actions.operations')}</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 && !groups.isLoading && (
            <Table.Tr>
              <Table.Td colSpan={3}>
                <Text c="dimmed" ta="center" py="lg">
                  {t('common:feedback.noData')}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {rows.map((group) => (
            <Table.Tr key={group.id} data-testid={`group-row-${group.name}`}>
              <Table.Td fw={500}>{group.name}</Table.Td>
              <Table.Td>
                <Button variant="subtle" size="compact-sm" onClick={() => onOpenLamps(group.id)} data-testid="group-count">
                  {group.deviceCount}
                </Button>
              </Table.Td>
              {(canEdit || canDelete) && (
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    {canEdit && (
                      <Tooltip label={t('lighting:equipment.renameGroup')}>
                        <ActionIcon onClick={() => setForm({ opened: true, group })} aria-label={t('lighting:equipment.renameGroup')}>
                          <IconEdit size={18} />
                        </ActionIcon>
                      </Tooltip>
                    )}
                    {canDelete && (
                      <Tooltip label={t('common:actions.delete')}>
                        <ActionIcon color="red" onClick={() => void del(group)} aria-label={t('common:actions.delete')} data-testid="group-delete">
                          <IconTrash size={18} />
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </Group>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <GroupNameModal opened={form.opened} group={form.group} onClose={() => setForm((f) => ({ ...f, opened: false }))} />
      <MoveAllModal groups={rows} opened={moving} onClose={() => setMoving(false)} />
    </>
  );
}
