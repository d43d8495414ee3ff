import { useState } from 'react';
import { ActionIcon, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconUserPlus, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  ACCOUNT_STATUSES,
  ALARM_GROUP_NAME_MAX,
  ALARM_GROUP_REMARK_MAX,
  CALL_PROTOCOLS,
  CallProtocol,
  AccountStatus,
  alarmGroupProblems,
  type AlarmAgentRecord,
  type AlarmUserGroupRow,
} from '@sc/contracts';
import { AreaCascader } from '@/components/area-cascader';
import { notifySuccess } from '@/components/notify';
import { useAgentCandidates, useSaveGroup } from './api';

/** Problems whose words are the server's answers only: the page has its own. */
const WEB_PROBLEMS = new Set(['sipAccountInvalid', 'alarmAgentTwice', 'alarmGroupTooManyAgents']);

/** A user group's form: its name, remark, region and its whole list of agents. */
export function GroupFormModal({ group, onClose }: { group: AlarmUserGroupRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveGroup();
  const candidates = useAgentCandidates(true);
  const [name, setName] = useState(group?.name ?? '');
  const [remark, setRemark] = useState(group?.remark ?? '');
  const [regionId, setRegionId] = useState<number | null>(group?.regionId ?? null);
  const [agents, setAgents] = useState<AlarmAgentRecord[]>(
    group?.agents.map(({ userId, sipAccount, protocol, accountStatus }) => ({ userId, sipAccount, protocol, accountStatus })) ?? [],
  );
  const [shown, setShown] = useState(false);
  const problems = alarmGroupProblems({ name, agents });
  const problem = (field: string) => {
    const found = shown ? problems.find((p) => p.field === field) : undefined;
    if (!found) return undefined;
    return WEB_PROBLEMS.has(found.key) ? t(`alarmIntercom:problems.${found.key}`, found.params) : t(`messages:${found.key}`, found.params);
  };
  // A user who is an agent of another group is not offered (the server refuses it too).
  const users = (candidates.data ?? []).filter((u) => u.groupId === null || u.groupId === group?.id);
  const change = (i: number, patch: Partial<AlarmAgentRecord>) => setAgents((list) => list.map((a, j) => (j === i ? { ...a, ...patch } : a)));

  const submit = () => {
    setShown(true);
    if (problems.length > 0) return;
    save.mutate(
      { id: group?.id, name: name.trim(), remark, regionId, agents: agents.map((a) => ({ ...a, sipAccount: a.sipAccount?.trim() ?? '' })) },
      {
        onSuccess: () => {
          notifySuccess(t('alarmIntercom:groups.saved'));
          onClose();
        },
      },
    );
  };

  return (
    <Modal opened onClose={onClose} size="xl" title={t(group ? 'alarmIntercom:groups.edit' : 'alarmIntercom:groups.add')} data-testid="group-form">
      <Stack gap="sm">
        <Group grow align="flex-start">
          <TextInput
            label={t('alarmIntercom:fields.name')}
            withAsterisk
            value={name}
            maxLength={ALARM_GROUP_NAME_MAX}
            onChange={(e) => setName(e.currentTarget.value)}
            error={problem('name')}
            data-testid="group-name"
          />
          <AreaCascader label={t('alarmIntercom:fields.region')} value={regionId} onChange={(id) => setRegionId(id ?? null)} />
        </Group>
        <TextInput
          label={t('alarmIntercom:fields.remark')}
          value={remark}
          maxLength={ALARM_GROUP_REMARK_MAX}
          onChange={(e) => setRemark(e.currentTarget.value)}
          data-testid="group-remark"
        />
        <Text size="sm" fw={500}>
          {t('alarmIntercom:fields.agents')}
        </Text>
        {agents.map((agent, i) => (
          <Group key={i} gap="xs" align="flex-start" wrap="nowrap" data-testid="group-agent">
            <Select
              aria-label={t('alarmIntercom:fields.user')}
              placeholder={t('alarmIntercom:groups.pickUser')}
              searchable
              value={agent.userId ? String(agent.userId) : null}
              data={users.map((u) => ({ value: String(u.id), label: u.username }))}
              onChange={(value) => change(i, { userId: value ? Number(value) : 0 })}
              error={problem(`agents[${i}].userId`)}
              w={180}
              data-testid="group-agent-user"
            />
            <TextInput
              aria-label={t('alarmIntercom:fields.sipAccount')}
              placeholder={t('alarmIntercom:fields.sipAccount')}
              value={agent.sipAccount ?? ''}
              maxLength={32}
              onChange={(e) => change(i, { sipAccount: e.currentTarget.value })}
              error={problem(`agents[${i}].sipAccount`)}
              w={140}
              data-testid="group-agent-sip"
            />
            <Select
              aria-label={t('alarmIntercom:fields.protocol')}
              value={agent.protocol}
              allowDeselect={false}
              data={CALL_PROTOCOLS.map((p) => ({ value: p, label: p }))}
              onChange={(value) => value && change(i, { protocol: value as CallProtocol })}
              w={100}
            />
            <Select
              aria-label={t('alarmIntercom:fields.accountStatus')}
              value={String(agent.accountStatus)}
              allowDeselect={false}
              data={ACCOUNT_STATUSES.map((s) => ({ value: String(s), label: t(`alarmIntercom:accountStatus.${s}`) }))}
              onChange={(value) => value !== null && change(i, { accountStatus: Number(value) as AccountStatus })}
              w={130}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              mt={6}
              aria-label={t('alarmIntercom:groups.removeAgent')}
              onClick={() => setAgents((list) => list.filter((_, j) => j !== i))}
            >
              <IconX size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Group justify="space-between">
          <Button
            variant="light"
            leftSection={<IconUserPlus size={16} />}
            onClick={() =>
              setAgents((list) => [...list, { userId: 0, sipAccount: '', protocol: CallProtocol.Sip, accountStatus: AccountStatus.Normal }])
            }
            data-testid="group-agent-add"
          >
            {t('alarmIntercom:groups.addAgent')}
          </Button>
          <Group gap="xs">
            <Button variant="default" onClick={onClose}>
              {t('common:actions.cancel')}
            </Button>
            <Button loading={save.isPending} onClick={submit} data-testid="group-save">
              {t('common:actions.save')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
