import { createFileRoute } from '@tanstack/react-router';
import { RadarGroupCreatePage } from '@/features/radar/group-form-page';

export const Route = createFileRoute('/_auth/_shell/radarManage/radarCreateGroup')({
  component: RadarGroupCreatePage,
});
