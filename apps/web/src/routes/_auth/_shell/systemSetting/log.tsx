import { createFileRoute } from '@tanstack/react-router';
import { OperationLogPage } from '@/features/system/log/operation-log-page';

export const Route = createFileRoute('/_auth/_shell/systemSetting/log')({
  component: OperationLogPage,
});
