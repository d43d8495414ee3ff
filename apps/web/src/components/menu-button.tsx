import { Suspense, useState, type ReactNode } from 'react';
import { ActionIcon, type ActionIconProps } from '@mantine/core';

/**
 * An icon button whose menu's code (Mantine's Menu or Popover, loaded with lazyComponent) loads on its first click,
 * so no page waits for it: until then the button alone; from the first click the loaded menu around the button,
 * opened, which toggles it from then on. Its label shows on hover as the browser's own tooltip: pages without
 * Mantine's Tooltip do not load it for this.
 */
export function MenuButton({
  label,
  testId,
  icon,
  menu,
  ...props
}: {
  label: string;
  testId: string;
  icon: ReactNode;
  /** The loaded menu around its `target` (the button), opened and closed through `onChange`. */
  menu: (state: { opened: boolean; onChange: (opened: boolean) => void; target: ReactNode }) => ReactNode;
} & Pick<ActionIconProps, 'color' | 'size'>) {
  const [opened, setOpened] = useState(false);
  const [used, setUsed] = useState(false);
  const button = (onClick?: () => void) => (
    <ActionIcon variant="subtle" aria-label={label} title={label} onClick={onClick} data-testid={testId} {...props}>
      {icon}
    </ActionIcon>
  );
  const first = button(() => {
    setUsed(true);
    setOpened(true);
  });
  if (!used) return first;
  return <Suspense fallback={first}>{menu({ opened, onChange: setOpened, target: button() })}</Suspense>;
}
