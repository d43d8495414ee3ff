import { useState } from 'react';
import { Group, MultiSelect, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { GroupPickerProps } from './group-picker';
import { emptyChosenGroup, groupPickerData } from './group-picker-choice';
import { useBroadcastGroupOptions } from './groups-api';

// Options fill their row, so a click on a disabled (empty) one lands on its content and can be answered.
const OPTION_STYLES = { option: { padding: 0 } };

/** The combobox of GroupPicker, in a chunk of its own. */
export function GroupPickerField({ value, onChange, label, required, error, testId = 'group-picker' }: GroupPickerProps) {
  const { t } = useTranslation();
  const options = useBroadcastGroupOptions().data ?? [];
  const [refused, setRefused] = useState(false);
  const byId = new Map(options.map((group) => [String(group.id), group]));
  const emptyMessage = t('messages:emptyGroupNotSelectable');
  return (
    <MultiSelect
      label={label ?? t('broadcastGroups:picker.label')}
      placeholder={t('broadcastGroups:picker.placeholder')}
      required={required}
      searchable
      clearable
      nothingFoundMessage={t('broadcastGroups:picker.nothing')}
      data={groupPickerData(options)}
      value={value.map(String)}
      onChange={(next) => {
        setRefused(false);
        onChange(next.map(Number));
      }}
      styles={OPTION_STYLES}
      renderOption={({ option, checked }) => {
        const group = byId.get(option.value);
        return (
          <Group
            justify="space-between"
            wrap="nowrap"
            gap="sm"
            w="100%"
            px="sm"
            py={6}
            onClick={() => {
              if (group?.empty) setRefused(true);
            }}
            data-testid={`${testId}-option`}
            data-empty={group?.empty || undefined}
          >
            <Group gap={6} wrap="nowrap">
              {checked && <IconCheck size={14} />}
              <Text size="sm">{option.label}</Text>
            </Group>
            <Text size="xs" c="dimmed">
              {t('broadcastGroups:picker.members', { count: group?.memberCount ?? 0 })}
            </Text>
          </Group>
        );
      }}
      error={refused || emptyChosenGroup(options, value) ? emptyMessage : error}
      data-testid={testId}
    />
  );
}
