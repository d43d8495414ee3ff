import { createFileRoute } from '@tanstack/react-router';
import { RadarGroupPage } from '@/features/radar/group-page';
import { validateRadarNameSearch } from '@/features/radar/search';

export const Route = createFileRoute('/_auth/_shell/radarManage/radarGroupManagement')({
  validateSearch: validateRadarNameSearch,
  component: RadarGroupPage,
});
