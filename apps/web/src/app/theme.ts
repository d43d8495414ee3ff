import { createTheme, darken, lighten, type MantineColorsTuple, type MantineSize, type MantineThemeOverride } from '@mantine/core';
import type { ElementSize } from '@/settings/settings-store';

/** Element sizes of spec section 3 mapped onto Mantine's scale; Mini also tightens spacing. */
const CONTROL_SIZE: Record<ElementSize, MantineSize> = { default: 'md', medium: 'sm', small: 'xs', mini: 'xs' };
const SCALE: Record<ElementSize, number> = { default: 1, medium: 1, small: 1, mini: 0.9 };

const SIZED = ['Button', 'TextInput', 'PasswordInput', 'NumberInput', 'Select', 'MultiSelect', 'Textarea', 'SegmentedControl', 'Checkbox', 'Switch'];

/** Ten shades around the chosen colour, which sits at shade 6 (the primary shade). */
export function palette(color: string): MantineColorsTuple {
  const light = [0.92, 0.82, 0.68, 0.52, 0.34, 0.16].map((amount) => lighten(color, amount));
  const dark = [0.14, 0.28, 0.4].map((amount) => darken(color, amount));
  return [...light, color, ...dark] as unknown as MantineColorsTuple;
}

export function buildTheme(themeColor: string, size: ElementSize): MantineThemeOverride {
  const control = CONTROL_SIZE[size];
  const components: MantineThemeOverride['components'] = Object.fromEntries(SIZED.map((name) => [name, { defaultProps: { size: control } }]));
  return createTheme({
    primaryColor: 'brand',
    colors: { brand: palette(themeColor) },
    primaryShade: 6,
    scale: SCALE[size],
    defaultRadius: 'sm',
    // Operators who ask their system for less motion get none: menus, drawers and dialogs open at once.
    respectReducedMotion: true,
    fontFamily:
      'Inter, -apple-system, BlinkMacSystemFont, "Segoe UI", "PingFang SC", "Hiragino Sans", "Microsoft YaHei", "Noto Sans CJK SC", "Noto Sans JP", sans-serif',
    headings: { fontWeight: '600' },
    components: {
      ...components,
      Table: { defaultProps: { verticalSpacing: control === 'md' ? 'sm' : 'xs', fontSize: control, highlightOnHover: true } },
      ActionIcon: { defaultProps: { variant: 'subtle' } },
      Notification: { defaultProps: { radius: 'md' } },
      Modal: { defaultProps: { centered: true } },
      // A status badge is read, not guessed: tables scroll sideways rather than cut a label short.
      Badge: { styles: { root: { minWidth: 'max-content' } } },
    },
  });
}
