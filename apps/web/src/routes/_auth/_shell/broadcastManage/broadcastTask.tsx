import { createFileRoute } from '@tanstack/react-router';
import { TaskPage } from '@/features/broadcast/task-page';
import { validateTaskSearch } from '@/features/broadcast/tasks-search';

export const Route = createFileRoute('/_auth/_shell/broadcastManage/broadcastTask')({
  validateSearch: validateTaskSearch,
  component: TaskPage,
});
