import { createFileRoute } from '@tanstack/react-router';
import { RegionManagePage } from '@/features/region/region-manage-page';

export const Route = createFileRoute('/_auth/_shell/regionManage/regionManage')({
  component: RegionManagePage,
});
