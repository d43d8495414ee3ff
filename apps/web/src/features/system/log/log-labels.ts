import { useTranslation } from 'react-i18next';
import { AUDITED_ACTIONS } from '@sc/contracts';

/**
 * The gateway records each audited call with an English description (its @Audit label, one of AUDITED_ACTIONS). The
 * console shows every one in the interface language; the filter still sends the recorded text, which the server matches.
 */
export const KNOWN_ACTIONS: Readonly<Record<string, string>> = AUDITED_ACTIONS;

export function useActionLabel(): (description: string) => string {
  const { t } = useTranslation();
  return (description) => {
    const key = KNOWN_ACTIONS[description];
    return key ? t(`system:log.actions.${key}`) : description;
  };
}
