import { createFileRoute } from '@tanstack/react-router';
import { GroupCreatePage } from '@/features/broadcast/group-form-page';

export const Route = createFileRoute('/_auth/_shell/broadcastManage/groupManagementCreate')({
  component: GroupCreatePage,
});
