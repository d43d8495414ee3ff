import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { GroupRow } from '@sc/contracts';

/** Group choices, administrator roles first, then general roles. */
export function useGroupOptions(groups: readonly GroupRow[]) {
  const { t } = useTranslation();
  return useMemo(() => {
    const item = (g: GroupRow) => ({ value: String(g.id), label: g.groupName });
    const admin = groups.filter((g) => g.isAdmin === 1).map(item);
    const general = groups.filter((g) => g.isAdmin !== 1).map(item);
    return [
      ...(admin.length ? [{ group: t('system:groups.adminRoles'), items: admin }] : []),
      ...(general.length ? [{ group: t('system:groups.generalRoles'), items: general }] : []),
    ];
  }, [groups, t]);
}
