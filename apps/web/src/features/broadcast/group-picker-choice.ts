import type { BroadcastGroupOption } from '@sc/contracts';

/**
 * The first chosen group that has no terminals (an empty group cannot be chosen; one chosen before it was emptied
 * still shows), or null. `chosen` are group ids.
 */
export function emptyChosenGroup(options: readonly BroadcastGroupOption[], chosen: readonly number[]): BroadcastGroupOption | null {
  const ids = new Set(chosen);
  return options.find((group) => group.empty && ids.has(group.id)) ?? null;
}

/** The picker's options: every group by name, an empty one disabled. */
export function groupPickerData(options: readonly BroadcastGroupOption[]): { value: string; label: string; disabled: boolean }[] {
  return options.map((group) => ({ value: String(group.id), label: group.groupName, disabled: group.empty }));
}
