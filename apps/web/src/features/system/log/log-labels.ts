import { useTranslation } from 'react-i18next';

/**
 * The gateway records each audited call with an English description (its @Audit label). The console shows the ones it knows
 * in the interface language; the filter still sends the recorded text, which the server matches.
 */
export const KNOWN_ACTIONS: Readonly<Record<string, string>> = {
  'Sign in': 'signIn',
  'Sign out': 'signOut',
  'Change own password': 'changeOwnPassword',
  'Create user': 'createUser',
  'Update user': 'updateUser',
  'Save permission group': 'saveGroup',
  'Delete permission group': 'deleteGroup',
  'Create region': 'createRegion',
  'Edit region': 'editRegion',
  'Delete region': 'deleteRegion',
};

export function useActionLabel(): (description: string) => string {
  const { t } = useTranslation();
  return (description) => {
    const key = KNOWN_ACTIONS[description];
    return key ? t(`system:log.actions.${key}`) : description;
  };
}
