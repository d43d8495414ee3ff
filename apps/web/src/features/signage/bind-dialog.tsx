import { useState } from 'react';
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '@/components/form-actions';
import { notifySuccess } from '@/components/notify';
import { Select } from '@/components/select';
import { useBindSignage, useSignageGroups } from './api';

/**
 * Binds the selected players (in no group) to a group, or moves them to another ('A target group is required to move a
 * device'). The server refuses players missing what binding needs ('Device binding needs complete information'), with
 * its message; nothing changes then.
 */
export function SignageBindDialog({
  mode,
  ids,
  onClose,
  onDone,
}: {
  mode: 'bind' | 'move';
  ids: readonly number[];
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const groups = useSignageGroups();
  const bind = useBindSignage();
  const [groupId, setGroupId] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const move = mode === 'move';
  const submit = async () => {
    if (!groupId) return setError(t(move ? 'messages:targetGroupRequired' : 'messages:selectGroup'));
    try {
      await bind.mutateAsync({ move, ids: [...ids], groupId: Number(groupId) });
    } catch {
      // The refusal is on screen (the server's message).
      return;
    }
    notifySuccess(t(move ? 'signage:feedback.moved' : 'signage:feedback.bound'));
    onDone();
    onClose();
  };
  return (
    <FormDialog
      opened
      onClose={onClose}
      title={t(move ? 'signage:bind.moveTitle' : 'signage:bind.bindTitle')}
      onSubmit={submit}
      busy={bind.isPending}
      testId="signage-bind-form"
      submitTestId="signage-bind-save"
      submitLabel={t(move ? 'signage:bind.move' : 'signage:bind.bind')}
    >
      <Text size="sm">{t('signage:bind.devices', { count: ids.length })}</Text>
      <Select
        label={t(move ? 'signage:bind.targetGroup' : 'signage:fields.group')}
        required
        data={(groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name }))}
        value={groupId}
        onChange={(v) => {
          setGroupId(v);
          setError(undefined);
        }}
        error={error}
        searchable
        data-testid="signage-bind-group"
      />
    </FormDialog>
  );
}
