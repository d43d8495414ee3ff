import { Suspense } from 'react';
import { TextInput, type ComboboxData, type ComboboxItem, type SelectProps } from '@mantine/core';
import { lazyComponent } from './deferred';

// Mantine's Select brings the whole combobox (popover, option list, keyboard handling). Pages paint without it: until
// its code has arrived, a read-only field shows the chosen label in the same place.
const SelectField = lazyComponent(() => import('./select-field'), 'SelectField');

function labelOf(data: ComboboxData | undefined, value: string | null | undefined): string {
  if (value === null || value === undefined || !data) return '';
  for (const entry of data as readonly (string | ComboboxItem | { group: string; items: readonly (string | ComboboxItem)[] })[]) {
    const items = typeof entry === 'object' && 'items' in entry ? entry.items : [entry];
    for (const item of items) {
      if (typeof item === 'string') {
        if (item === value) return item;
      } else if (item.value === value) return item.label ?? item.value;
    }
  }
  return '';
}

/** Mantine's Select, loaded beside the page rather than before it. */
export function Select(props: SelectProps) {
  const { label, placeholder, w, size, description, required, disabled, leftSection, maw, style } = props;
  return (
    <Suspense
      fallback={
        <TextInput
          readOnly
          label={label}
          placeholder={placeholder}
          description={description}
          required={required}
          disabled={disabled}
          leftSection={leftSection}
          size={size}
          w={w}
          maw={maw}
          style={style}
          value={labelOf(props.data, props.value ?? props.defaultValue)}
        />
      }
    >
      <SelectField {...props} />
    </Suspense>
  );
}
