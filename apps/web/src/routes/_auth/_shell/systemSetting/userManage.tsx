import { createFileRoute } from '@tanstack/react-router';
import { UserManagePage } from '@/features/system/users/user-manage-page';
import { validateUserSearch } from '@/features/system/users/search';

export const Route = createFileRoute('/_auth/_shell/systemSetting/userManage')({
  validateSearch: validateUserSearch,
  component: UserManagePage,
});
