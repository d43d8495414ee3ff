import type { GROUP_NAME_MAX } from '@sc/contracts';
import { PAGED, searchOf, type PageSearch } from '@/navigation/search-params';

export const ROLE_TABS = ['admin', 'general'] as const;
export type RoleTab = (typeof ROLE_TABS)[number];

/** The roles page's tab, name filter and page, kept in the address. */
export interface GroupSearch extends PageSearch {
  tab?: RoleTab;
  groupName?: string;
}

export const validateGroupSearch = searchOf<GroupSearch>({
  ...PAGED,
  tab: { oneOf: ROLE_TABS },
  groupName: { text: 32 satisfies typeof GROUP_NAME_MAX },
});
