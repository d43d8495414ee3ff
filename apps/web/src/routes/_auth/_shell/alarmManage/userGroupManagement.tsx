import { createFileRoute } from '@tanstack/react-router';
import { UserGroupsPage } from '@/features/alarm-intercom/user-groups-page';
import { validateGroupSearch } from '@/features/alarm-intercom/search';

export const Route = createFileRoute('/_auth/_shell/alarmManage/userGroupManagement')({
  validateSearch: validateGroupSearch,
  component: UserGroupsPage,
});
