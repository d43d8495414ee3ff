import { createFileRoute } from '@tanstack/react-router';
import { AlarmManagePage } from '@/features/alarm-intercom/alarm-manage-page';
import { validateAlarmManageSearch } from '@/features/alarm-intercom/search';

export const Route = createFileRoute('/_auth/_shell/alarmManage/alarmManage')({
  validateSearch: validateAlarmManageSearch,
  component: AlarmManagePage,
});
