import { createFileRoute } from '@tanstack/react-router';
import { RadarTerminalPage } from '@/features/radar/radar-terminal-page';
import { validateRadarSearch } from '@/features/radar/search';

export const Route = createFileRoute('/_auth/_shell/radarManage/radarTerminalManagement')({
  validateSearch: validateRadarSearch,
  component: RadarTerminalPage,
});
