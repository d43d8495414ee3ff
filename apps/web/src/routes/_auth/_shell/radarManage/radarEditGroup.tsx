import { createFileRoute } from '@tanstack/react-router';
import { RadarGroupEditPage } from '@/features/radar/group-form-page';
import { validateIdSearch } from '@/navigation/search-params';

export const Route = createFileRoute('/_auth/_shell/radarManage/radarEditGroup')({
  validateSearch: validateIdSearch,
  component: RadarGroupEditPage,
});
