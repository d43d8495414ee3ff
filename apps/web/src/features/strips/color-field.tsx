import { ColorInput } from '@mantine/core';

const SWATCHES = ['#ffffff', '#ff3b30', '#ff9500', '#ffcc00', '#34c759', '#00c7be', '#1366ec', '#af52de'];

/** The colour of a set-colour effect (type 6); its own chunk, loaded when type 6 is chosen. */
export function ColorField({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  return <ColorInput label={label} format="hex" swatches={SWATCHES} value={value} onChange={onChange} data-testid="strip-effect-color" />;
}
