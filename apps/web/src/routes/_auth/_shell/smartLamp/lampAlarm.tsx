import { createFileRoute } from '@tanstack/react-router';
import { LampAlarmPage } from '@/features/alarms/alarm-page';
import { validateAlarmSearch } from '@/features/alarms/search';

export const Route = createFileRoute('/_auth/_shell/smartLamp/lampAlarm')({
  validateSearch: validateAlarmSearch,
  component: LampAlarmPage,
});
