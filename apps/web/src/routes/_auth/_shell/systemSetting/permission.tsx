import { createFileRoute } from '@tanstack/react-router';
import { PermissionPage } from '@/features/system/groups/permission-page';

export const Route = createFileRoute('/_auth/_shell/systemSetting/permission')({
  component: PermissionPage,
});
