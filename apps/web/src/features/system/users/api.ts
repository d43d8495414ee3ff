import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateUserRequest, PageResult, UpdateUserRequest, UserPageQuery, UserRow } from '@sc/contracts';
import { post } from '@/api/request';
import { groupKeys } from '../groups/api';

export const userKeys = {
  all: ['system', 'users'] as const,
  page: (query: UserPageQuery) => ['system', 'users', query] as const,
};

export function useUserPage(query: UserPageQuery) {
  return useQuery({
    queryKey: userKeys.page(query),
    queryFn: ({ signal }) => post<PageResult<UserRow>>('/user/userPage', query, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** User changes move the user counts of the groups too. */
function useInvalidateAfterUserChange() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: userKeys.all }), queryClient.invalidateQueries({ queryKey: groupKeys.all })]);
}

export function useCreateUser() {
  const invalidate = useInvalidateAfterUserChange();
  return useMutation({
    mutationFn: (body: CreateUserRequest) => post<{ id: number }>('/user/createUser', body),
    onSuccess: invalidate,
  });
}

export function useUpdateUser() {
  const invalidate = useInvalidateAfterUserChange();
  return useMutation({
    mutationFn: (body: UpdateUserRequest) => post<null>('/user/updateUser', body),
    onSuccess: invalidate,
  });
}
