import type { USERNAME_MAX } from '@sc/contracts';
import { PAGED, searchOf, type PageSearch } from '@/navigation/search-params';

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

export const validateUserSearch = searchOf<UserSearch>({
  ...PAGED,
  username: { text: 32 satisfies typeof USERNAME_MAX },
  groupId: 'int',
  status: { oneOf: USER_STATUSES },
  loginFrom: 'date',
  loginTo: 'date',
});
