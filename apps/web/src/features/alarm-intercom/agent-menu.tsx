import { ActionIcon, Indicator, Menu, Tooltip } from '@mantine/core';
import { IconCheck, IconHeadset } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { AGENT_MODES, AgentMode } from '@sc/contracts';
import { useAgentMe, useSetAgentMode } from './api';

const MODE_COLOR: Record<AgentMode, string> = { IDLE: 'green', BUSY: 'orange', OFFLINE: 'gray' };

/**
 * The header's agent control, for an agent of a user group: a headset showing its mode by colour, and a menu to set it
 * (Idle takes the columns' calls; Busy and Offline do not). Nothing for a user in no group.
 */
export default function AgentMenu() {
  const { t } = useTranslation();
  const me = useAgentMe({ fetch: false });
  const setMode = useSetAgentMode();
  if (!me.data) return null;
  const mode = me.data.mode;
  const label = `${t('alarmIntercom:dock.title', { group: me.data.groupName })}: ${t(`alarmIntercom:mode.${mode}`)}`;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Tooltip label={label}>
          <Indicator color={MODE_COLOR[mode]} size={10} offset={6} withBorder processing={mode === AgentMode.Idle}>
            <ActionIcon size="lg" color="gray" aria-label={label} loading={setMode.isPending} data-testid="agent-mode" data-mode={mode}>
              <IconHeadset size={20} />
            </ActionIcon>
          </Indicator>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('alarmIntercom:fields.mode')}</Menu.Label>
        {AGENT_MODES.map((choice) => (
          <Menu.Item
            key={choice}
            color={choice === mode ? MODE_COLOR[choice] : undefined}
            rightSection={choice === mode ? <IconCheck size={14} /> : null}
            onClick={() => choice !== mode && setMode.mutate(choice)}
            data-testid={`agent-mode-${choice}`}
          >
            {t(`alarmIntercom:mode.${choice}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
