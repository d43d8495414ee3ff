import { createFileRoute } from '@tanstack/react-router';
import { CallLogPage } from '@/features/alarm-intercom/call-log-page';
import { validateCallLogSearch } from '@/features/alarm-intercom/search';

export const Route = createFileRoute('/_auth/_shell/alarmManage/callLogQuery')({
  validateSearch: validateCallLogSearch,
  component: CallLogPage,
});
