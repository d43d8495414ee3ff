import { createFileRoute } from '@tanstack/react-router';
import { OperationLogPage } from '@/features/system/log/operation-log-page';
import { validateLogSearch } from '@/features/system/log/search';

export const Route = createFileRoute('/_auth/_shell/systemSetting/log')({
  validateSearch: validateLogSearch,
  component: OperationLogPage,
});
