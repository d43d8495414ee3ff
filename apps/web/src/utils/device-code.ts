import type { TFunction } from 'i18next';
import { DEVICE_CODE_PATTERN } from '@sc/contracts';

/** What is wrong with a device code typed into a form (an MQTT client id), or undefined when nothing is. */
export function deviceCodeError(t: TFunction, code: string): string | undefined {
  const value = code.trim();
  if (!value) return t('messages:pleaseEnter');
  return DEVICE_CODE_PATTERN.test(value) ? undefined : t('messages:clientIdInvalid');
}
