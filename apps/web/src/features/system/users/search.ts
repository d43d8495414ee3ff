import { USERNAME_MAX } from '@sc/contracts';
import { compact, readDate, readEnum, readInt, readPage, readText, type PageSearch } from '@/navigation/search-params';

export const USER_STATUSES = ['enabled', 'disabled'] as const;
export type UserStatusFilter = (typeof USER_STATUSES)[number];

/** The user list's page and filters, kept in the address so a filtered page survives reload and the back button. */
export interface UserSearch extends PageSearch {
  username?: string;
  groupId?: number;
  status?: UserStatusFilter;
  /** Last-login range, YYYY-MM-DD (local days). */
  loginFrom?: string;
  loginTo?: string;
}

export function validateUserSearch(search: Record<string, unknown>): UserSearch {
  return compact({
    ...readPage(search),
    username: readText(search.username, USERNAME_MAX),
    groupId: readInt(search.groupId),
    status: readEnum(search.status, USER_STATUSES),
    loginFrom: readDate(search.loginFrom),
    loginTo: readDate(search.loginTo),
  });
}
