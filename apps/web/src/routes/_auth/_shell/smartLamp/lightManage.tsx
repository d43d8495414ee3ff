import { createFileRoute } from '@tanstack/react-router';
import { StripManagePage } from '@/features/strips/strip-manage-page';
import { validateStripSearch } from '@/features/strips/search';

export const Route = createFileRoute('/_auth/_shell/smartLamp/lightManage')({
  validateSearch: validateStripSearch,
  component: StripManagePage,
});
