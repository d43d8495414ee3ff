// The combobox behind every page-level select, in a chunk of its own (see select.tsx).
export { Select as SelectField } from '@mantine/core';
