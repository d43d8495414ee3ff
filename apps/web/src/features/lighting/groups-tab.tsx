import { useState } from 'react';
import { Button, Group, Table } from '@mantine/core';
import { Select } from '@/components/select';
import { IconArrowsTransferDown, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, DEVICE_GROUP_NAME_MAX, DeviceType, type DeviceGroupRow } from '@sc/contracts';
import { deleteAfterConfirm } from '@/components/confirm';
import { EditDeleteCell } from '@/components/row-actions';
import { TableEmptyRow } from '@/components/table-parts';
import { ColumnCells, ColumnHeads, OneLine, TableBox, useTableColumns } from '@/components/table-columns';
import { notifySuccess } from '@/components/notify';
import { FormDialog, useFormDialog } from '@/components/form-actions';
import { GroupNameDialog } from '@/components/group-name-dialog';
import { fieldErrors } from '@/api/field-errors';
import { useButton } from '@/auth/session-store';
import { useDeleteGroup, useGroups, useMoveToGroup, useSaveGroup } from './equipment-api';

const TYPE = DeviceType.SingleLamp;

function GroupNameModal({ group, opened, onClose }: { group: DeviceGroupRow | null; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveGroup();
  return (
    <GroupNameDialog
      group={group}
      opened={opened}
      onClose={onClose}
      save={(body) => save.mutateAsync({ ...body, type: TYPE })}
      busy={save.isPending}
      title={t(group ? 'lighting:equipment.renameGroup' : 'lighting:equipment.addGroup')}
      label={t('lighting:fields.groupName')}
      maxLength={DEVICE_GROUP_NAME_MAX}
      testId="group-form"
    />
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
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={t('lighting:equipment.moveGroupDevices')}
      onSubmit={submit}
      busy={move.isPending}
      testId="move-all-form"
      submitTestId="move-all-submit"
      submitLabel={t('common:actions.confirm')}
    >
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
    </FormDialog>
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
  const form = useFormDialog<DeviceGroupRow>();
  const [moving, setMoving] = useState(false);
  const rows = groups.data ?? [];
  const columns = useTableColumns<DeviceGroupRow>('lamp-groups', [
    { key: 'name', label: t('lighting:fields.groupName'), always: true, cell: (group) => <OneLine fw={500}>{group.name}</OneLine> },
    {
      key: 'lamps',
      label: t('lighting:equipment.lamps'),
      cell: (group) => (
        <Button variant="subtle" size="compact-sm" onClick={() => onOpenLamps(group.id)} data-testid="group-count">
          {group.deviceCount}
        </Button>
      ),
    },
  ]);
  return (
    <>
      <Group gap="xs" mb="sm">
        {canAdd && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => form.open(null)} data-testid="group-add">
            {t('lighting:equipment.addGroup')}
          </Button>
        )}
        {canEdit && (
          <Button variant="default" leftSection={<IconArrowsTransferDown size={16} />} onClick={() => setMoving(true)} data-testid="group-move-all">
            {t('lighting:equipment.moveGroupDevices')}
          </Button>
        )}
      </Group>
      <TableBox>
        <Table striped data-testid="group-table">
          <ColumnHeads columns={columns} actions={canEdit || canDelete} />
          <Table.Tbody>
            {rows.length === 0 && !groups.isLoading && <TableEmptyRow colSpan={columns.span()} py="lg" />}
            {rows.map((group) => (
              <Table.Tr key={group.id} data-testid={`group-row-${group.name}`}>
                <ColumnCells columns={columns} row={group} />
                <EditDeleteCell
                  canEdit={canEdit}
                  canDelete={canDelete}
                  editLabel={t('lighting:equipment.renameGroup')}
                  onEdit={() => form.open(group)}
                  onDelete={() =>
                    void deleteAfterConfirm(group.name, () => remove.mutateAsync({ id: group.id, type: TYPE }), t('common:feedback.deleted'))
                  }
                  deleteTestId="group-delete"
                />
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableBox>
      <GroupNameModal opened={form.opened} group={form.row} onClose={form.close} />
      <MoveAllModal groups={rows} opened={moving} onClose={() => setMoving(false)} />
    </>
  );
}
