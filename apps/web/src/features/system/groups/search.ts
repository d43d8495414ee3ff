import { GROUP_NAME_MAX } from '@sc/contracts';
import { compact, readEnum, readPage, readText, type PageSearch } from '@/navigation/search-params';

export const ROLE_TABS = ['admin', 'general'] as const;
export type RoleTab = (typeof ROLE_TABS)[number];

/** The roles page's tab, name filter and page, kept in the address. */
export interface GroupSearch extends PageSearch {
  tab?: RoleTab;
  groupName?: string;
}

export function validateGroupSearch(search: Record<string, unknown>): GroupSearch {
  return compact({ ...readPage(search), tab: readEnum(search.tab, ROLE_TABS), groupName: readText(search.groupName, GROUP_NAME_MAX) });
}
