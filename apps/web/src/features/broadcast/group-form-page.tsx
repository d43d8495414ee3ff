import { useState } from 'react';
import { Anchor, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { Link, getRouteApi, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { BROADCAST_GROUP_NAME_MAX, BROADCAST_GROUP_REMARK_MAX, type BroadcastGroupDetail } from '@sc/contracts';
import { AreaCascader } from '@/components/area-cascader';
import { FormActions, saveAndClose } from '@/components/form-actions';
import { PagePanel } from '@/components/page-panel';
import { GroupTerminalTransfer, useTerminalTransfer } from './group-terminal-transfer';
import { useBroadcastGroup, useSaveBroadcastGroup } from './groups-api';

const editRoute = getRouteApi('/_auth/_shell/broadcastManage/groupManagementEdit');

/** A group's name, region, remark and terminals; saved whole, back to the list. Refusals stand under their fields. */
function GroupForm({ group }: { group: BroadcastGroupDetail | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const save = useSaveBroadcastGroup();
  const transfer = useTerminalTransfer(group?.members ?? []);
  const [groupName, setGroupName] = useState(group?.groupName ?? '');
  const [regionId, setRegionId] = useState(group?.regionId ?? null);
  const [remark, setRemark] = useState(group?.remark ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const back = () => void navigate({ to: '/broadcastManage/groupManagement' });
  // Not a <form> element: the terminal search inside it is a form of its own.
  const submit = () => {
    if (!groupName.trim()) return setErrors({ groupName: t('messages:enterGroupName') });
    void saveAndClose(
      () =>
        save.mutateAsync({
          ...(group ? { id: group.id } : {}),
          groupName: groupName.trim(),
          regionId,
          remark: remark.trim(),
          terminalIds: [...transfer.selection.selected],
        }),
      { updated: Boolean(group), close: back, setErrors },
    );
  };
  return (
    <Stack data-testid="group-form">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput
          label={t('broadcastGroups:fields.groupName')}
          required
          maxLength={BROADCAST_GROUP_NAME_MAX}
          name="groupName"
          value={groupName}
          onChange={(e) => setGroupName(e.currentTarget.value)}
          error={errors.groupName}
        />
        <AreaCascader label={t('broadcastGroups:fields.region')} value={regionId} onChange={setRegionId} error={errors.regionId} />
        <TextInput
          label={t('broadcastGroups:fields.remark')}
          maxLength={BROADCAST_GROUP_REMARK_MAX}
          name="remark"
          value={remark}
          onChange={(e) => setRemark(e.currentTarget.value)}
          error={errors.remark}
        />
      </SimpleGrid>
      <GroupTerminalTransfer transfer={transfer} error={errors.terminalIds} texts="broadcastGroups:terminals" />
      <FormActions onCancel={back} onConfirm={submit} loading={save.isPending} testId="group-form-save" />
    </Stack>
  );
}

function BackToGroups() {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to="/broadcastManage/groupManagement" size="sm">
      {t('broadcastGroups:back')}
    </Anchor>
  );
}

/** /broadcastManage/groupManagementCreate (hidden): a new group. */
export function GroupCreatePage() {
  const { t } = useTranslation();
  return (
    <PagePanel title={t('broadcastGroups:create')} actions={<BackToGroups />}>
      <GroupForm group={null} />
    </PagePanel>
  );
}

/** /broadcastManage/groupManagementEdit?id= (hidden): the group as loaded, changed and saved whole. */
export function GroupEditPage() {
  const { t } = useTranslation();
  const { id } = editRoute.useSearch();
  const group = useBroadcastGroup(id ?? 0);
  return (
    <PagePanel title={t('broadcastGroups:edit')} actions={<BackToGroups />}>
      {group.data ? (
        // A fresh form for each group loaded.
        <GroupForm key={group.data.id} group={group.data} />
      ) : (
        <Text c="dimmed" data-testid="group-edit-state">
          {group.isError || !id ? t('broadcastGroups:notFound') : t('common:feedback.loading')}
        </Text>
      )}
    </PagePanel>
  );
}
