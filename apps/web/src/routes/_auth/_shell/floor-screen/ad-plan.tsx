import { createFileRoute } from '@tanstack/react-router';
import { AdPlanPage } from '@/features/signage-plans/plan-page';

export const Route = createFileRoute('/_auth/_shell/floor-screen/ad-plan')({
  component: AdPlanPage,
});
