import { createFileRoute } from '@tanstack/react-router';
import { UserManagePage } from '@/features/system/users/user-manage-page';

export const Route = createFileRoute('/_auth/_shell/systemSetting/userManage')({
  component: UserManagePage,
});
