import { createFileRoute } from '@tanstack/react-router';
import { PermissionPage } from '@/features/system/groups/permission-page';
import { validateGroupSearch } from '@/features/system/groups/search';

export const Route = createFileRoute('/_auth/_shell/systemSetting/permission')({
  validateSearch: validateGroupSearch,
  component: PermissionPage,
});
