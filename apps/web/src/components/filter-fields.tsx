import type { ReactNode } from 'react';
import { TextInput } from '@mantine/core';
import { Select } from './select';

// The fields of the list pages' filter bars (FilterBar): what is typed or chosen goes to the page's draft, and the
// bar's Search (or Enter, which submits the bar's form) applies it. Full width on a phone, `width` pixels from `sm` up.

/** A text filter (a name, part of one): the draft's text, empty when none. */
export function NameFilter({
  value,
  onChange,
  width = 220,
  testId,
  ...input
}: {
  label: string;
  value: string | undefined;
  onChange: (value: string) => void;
  placeholder?: string;
  maxLength?: number;
  /** The input's name (the browser tests find some fields by it). */
  name?: string;
  leftSection?: ReactNode;
  width?: number;
  testId?: string;
}) {
  return (
    <TextInput
      {...input}
      value={value ?? ''}
      onChange={(e) => onChange(e.currentTarget.value)}
      w={{ base: '100%', sm: width }}
      data-testid={testId}
    />
  );
}

/** One option of an OptionFilter: its value as the query sends it (a string or a number), and its label. */
export interface FilterOption<T extends string | number> {
  value: T;
  label: string;
}

/** A choice among `options`; cleared (undefined), any. Number values come back as numbers. */
export function OptionFilter<T extends string | number>({
  options,
  value,
  onChange,
  width = 180,
  testId,
  ...select
}: {
  label: string;
  /** Shown when nothing is chosen: "all …". */
  placeholder: string;
  options: readonly FilterOption<T>[];
  value: T | undefined;
  onChange: (value: T | undefined) => void;
  width?: number;
  testId?: string;
}) {
  return (
    <Select
      {...select}
      clearable
      data={options.map((option) => ({ value: String(option.value), label: option.label }))}
      value={value === undefined ? null : String(value)}
      onChange={(chosen) => onChange(chosen === null ? undefined : options.find((option) => String(option.value) === chosen)?.value)}
      w={{ base: '100%', sm: width }}
      data-testid={testId}
    />
  );
}
