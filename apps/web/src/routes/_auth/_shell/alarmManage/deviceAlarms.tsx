import { createFileRoute } from '@tanstack/react-router';
import { DeviceAlarmsPage } from '@/features/alarms/alarm-page';
import { validateAlarmSearch } from '@/features/alarms/search';

export const Route = createFileRoute('/_auth/_shell/alarmManage/deviceAlarms')({
  validateSearch: validateAlarmSearch,
  component: DeviceAlarmsPage,
});
