import { Suspense, useMemo, type FocusEventHandler, type ReactNode } from 'react';
import { TextInput } from '@mantine/core';
import { IconMapPin } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '@/i18n';
import { lazyComponent } from '@/components/deferred';
import { areaLabel, findAreaPath, useAreaTree } from '@/features/region/area-tree';

export { areaLabel, areaPathLabel, useAreaTree, AREA_TREE_KEY } from '@/features/region/area-tree';

/** Spec section 9: the area cascader is 300 px wide. */
export const AREA_CASCADER_WIDTH = 300;

// The cascader's code (columns, search, the combobox) loads beside the page; until then the field shows its value.
const AreaCascaderField = lazyComponent(() => import('./area-cascader-field'), 'AreaCascaderField');

export interface AreaCascaderProps {
  /** The chosen region id; null when nothing is chosen. */
  value: number | null;
  onChange: (id: number | null) => void;
  /** Defaults to 'Please select area' ('请选择区域'). */
  placeholder?: string;
  disabled?: boolean;
  /** Defaults to 300 px; pass '100%' to fill a form column. */
  width?: number | string;
  label?: ReactNode;
  description?: ReactNode;
  error?: ReactNode;
  required?: boolean;
  /** Defaults to true. */
  clearable?: boolean;
  /** Regions that cannot be chosen or opened (e.g. a region itself when choosing its new parent). */
  disabledIds?: readonly number[];
  /** Name of the hidden input that carries the id, for forms and tests. */
  name?: string;
  onBlur?: FocusEventHandler<HTMLInputElement>;
  onFocus?: FocusEventHandler<HTMLInputElement>;
  'data-testid'?: string;
  'aria-label'?: string;
}

/**
 * Region picker over GET /api/bi/area/queryAreaTree (spec sections 3 and 9), in the manner of el-cascader
 * (area-cascader-field.tsx). The page paints with a read-only field showing the chosen path; the picker replaces it
 * as soon as its code has loaded.
 */
export function AreaCascader(props: AreaCascaderProps) {
  return (
    <Suspense fallback={<AreaCascaderPlaceholder {...props} />}>
      <AreaCascaderField {...props} />
    </Suspense>
  );
}

function AreaCascaderPlaceholder({
  value,
  placeholder,
  disabled,
  width = AREA_CASCADER_WIDTH,
  label,
  description,
  error,
  required,
  ...rest
}: AreaCascaderProps) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const { tree } = useAreaTree();
  const display = useMemo(
    () =>
      value === null || value === undefined
        ? ''
        : (findAreaPath(tree, value)
            ?.map((node) => areaLabel(node, lang))
            .join(' / ') ?? ''),
    [tree, value, lang],
  );
  return (
    <TextInput
      readOnly
      value={display}
      placeholder={placeholder ?? t('common:area.placeholder')}
      disabled={disabled}
      label={label}
      description={description}
      error={error}
      required={required}
      leftSection={<IconMapPin size={16} stroke={1.6} />}
      w={width}
      maw="100%"
      aria-label={rest['aria-label']}
    />
  );
}
