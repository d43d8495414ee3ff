import { createFileRoute } from '@tanstack/react-router';
import { GroupEditPage } from '@/features/broadcast/group-form-page';
import { validateIdSearch } from '@/navigation/search-params';

export const Route = createFileRoute('/_auth/_shell/broadcastManage/groupManagementEdit')({
  validateSearch: validateIdSearch,
  component: GroupEditPage,
});
