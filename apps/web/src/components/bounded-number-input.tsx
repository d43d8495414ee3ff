import { NumberInput, type NumberInputProps } from '@mantine/core';
import type { TFunction } from 'i18next';
import { NUMBER_BOUNDS, numberProblem, type NumberBounds } from '@sc/contracts';

/**
 * A number input that never changes what the operator typed: nothing is clamped into range or rounded on blur, a
 * decimal point or a minus sign is never swallowed. `numberFieldError` says what is wrong, under the field, and the
 * form does not send it. The bounds are the ones the server checks (NUMBER_BOUNDS in libs/contracts).
 */
export function BoundedNumberInput({ bounds, ...props }: Omit<NumberInputProps, 'min' | 'max' | 'clampBehavior'> & { bounds: NumberBounds }) {
  return <NumberInput clampBehavior="none" min={bounds.min} max={bounds.max} allowDecimal allowNegative {...props} />;
}

/** The translated problem of a number field's value ('' is empty: an error only when `required`), or null. */
export function numberFieldError(t: TFunction, value: number | string, bounds: NumberBounds, required = false): string | null {
  if (value === '' || value === undefined || value === null) return required ? t('messages:pleaseEnter') : null;
  // Mantine keeps text it cannot read as a number yet ('-', '1.', '1e') as a string.
  const number = typeof value === 'number' ? value : /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : NaN;
  const problem = numberProblem(number, bounds);
  if (!problem) return null;
  return 'params' in problem ? t(`messages:${problem.key}`, problem.params) : t(`messages:${problem.key}`);
}

/** A position's latitude or longitude as sent: the number typed, or null when left empty. */
export const coordinateOf = (v: number | string): number | null => (v === '' || v === null ? null : Number(v));

/** Latitude and longitude of a form: each within its bounds, and both or neither. */
export function positionErrors(
  t: TFunction,
  latitude: number | string,
  longitude: number | string,
): { latitude: string | undefined; longitude: string | undefined } {
  const incomplete = (latitude === '') !== (longitude === '') ? t('messages:positionIncomplete') : null;
  return {
    latitude: numberFieldError(t, latitude, NUMBER_BOUNDS.latitude) ?? incomplete ?? undefined,
    longitude: numberFieldError(t, longitude, NUMBER_BOUNDS.longitude) ?? undefined,
  };
}
