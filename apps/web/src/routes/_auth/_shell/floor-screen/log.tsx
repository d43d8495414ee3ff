import { createFileRoute } from '@tanstack/react-router';
import { SignageLogPage } from '@/features/system/log/module-log-page';
import { validateLogSearch } from '@/features/system/log/search';

export const Route = createFileRoute('/_auth/_shell/floor-screen/log')({
  validateSearch: validateLogSearch,
  component: SignageLogPage,
});
