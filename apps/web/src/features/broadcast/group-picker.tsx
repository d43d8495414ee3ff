import { Suspense, type ReactNode } from 'react';
import { TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { lazyComponent } from '@/components/deferred';

const GroupPickerField = lazyComponent(() => import('./group-picker-field'), 'GroupPickerField');

export interface GroupPickerProps {
  /** The chosen groups' ids. */
  value: number[];
  onChange: (ids: number[]) => void;
  /** 'Groups' unless told. */
  label?: string;
  required?: boolean;
  error?: ReactNode;
  testId?: string;
}

/**
 * Chooses broadcast groups (e.g. the groups a task plays to), several at once. A group without terminals is offered
 * disabled; choosing it says 'This group has no devices and cannot be selected', as does a chosen group emptied since.
 * The combobox loads beside the page: until it has, a read-only field stands in its place. Pages using it load the
 * broadcastGroups namespace.
 */
export function GroupPicker(props: GroupPickerProps) {
  const { t } = useTranslation();
  return (
    <Suspense
      fallback={<TextInput readOnly label={props.label ?? t('broadcastGroups:picker.label')} required={props.required} error={props.error} />}
    >
      <GroupPickerField {...props} />
    </Suspense>
  );
}
