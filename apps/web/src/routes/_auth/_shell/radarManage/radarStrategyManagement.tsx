import { createFileRoute } from '@tanstack/react-router';
import { validateRadarNameSearch } from '@/features/radar/search';
import { RadarStrategyPage } from '@/features/radar/strategy-page';

export const Route = createFileRoute('/_auth/_shell/radarManage/radarStrategyManagement')({
  validateSearch: validateRadarNameSearch,
  component: RadarStrategyPage,
});
