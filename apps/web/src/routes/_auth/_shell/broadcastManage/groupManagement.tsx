import { createFileRoute } from '@tanstack/react-router';
import { GroupManagePage } from '@/features/broadcast/group-manage-page';
import { validateGroupSearch } from '@/features/broadcast/groups-search';

export const Route = createFileRoute('/_auth/_shell/broadcastManage/groupManagement')({
  validateSearch: validateGroupSearch,
  component: GroupManagePage,
});
