import type { ReactNode } from 'react';
import { Menu } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PlayAction, type BroadcastTaskRow } from '@sc/contracts';
import { confirmCommand } from '@/components/confirm';
import { notifySuccess } from '@/components/notify';
import { useTaskControl } from './tasks-api';

const CONTROLS: readonly PlayAction[] = [PlayAction.Play, PlayAction.Pause, PlayAction.CancelPause, PlayAction.Stop];

/**
 * Play, pause, cancel pause and stop of one task around its button (`children`), each confirmed with the number of
 * terminals it reaches. Loaded on the button's first click (MenuButton), so the task list does not wait for
 * Mantine's Menu.
 */
export function TaskControlMenu({
  task,
  opened,
  onChange,
  onDispatched,
  children,
}: {
  task: BroadcastTaskRow;
  opened: boolean;
  onChange: (opened: boolean) => void;
  onDispatched: (dispatchId: string) => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const control = useTaskControl();
  const send = async (action: PlayAction) => {
    const detail = t('broadcastTasks:control.confirm', {
      action: t(`broadcastTasks:control.${action}`),
      name: task.taskName,
      count: task.terminalCount,
    });
    if (!(await confirmCommand(detail, { confirm: t(`broadcastTasks:control.${action}`), testId: 'task-control-confirm' }))) return;
    control.mutate(
      { id: task.id, action },
      {
        onSuccess: ({ dispatchId }) => {
          notifySuccess(t('messages:instructionSent'));
          onDispatched(dispatchId);
        },
      },
    );
  };
  return (
    <Menu position="bottom-end" withinPortal opened={opened} onChange={onChange}>
      <Menu.Target>{children}</Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('broadcastTasks:control.hint')}</Menu.Label>
        {CONTROLS.map((action) => (
          <Menu.Item key={action} onClick={() => void send(action)} data-testid={`task-control-${action}`}>
            {t(`broadcastTasks:control.${action}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
