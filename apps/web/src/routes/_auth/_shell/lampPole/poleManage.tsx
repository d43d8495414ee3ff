import { createFileRoute } from '@tanstack/react-router';
import { PoleManagePage } from '@/features/poles/pole-manage-page';
import { validatePoleSearch } from '@/features/poles/search';

export const Route = createFileRoute('/_auth/_shell/lampPole/poleManage')({
  validateSearch: validatePoleSearch,
  component: PoleManagePage,
});
