import { createFileRoute } from '@tanstack/react-router';
import { LedTaskPage } from '@/features/led/task-page';

export const Route = createFileRoute('/_auth/_shell/ledManage/ledTaskManage')({
  component: LedTaskPage,
});
