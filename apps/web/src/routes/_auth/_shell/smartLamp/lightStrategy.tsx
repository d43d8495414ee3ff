import { createFileRoute } from '@tanstack/react-router';
import { StripStrategyPage } from '@/features/strips/strip-strategy-page';
import { validateStripSearch } from '@/features/strips/search';

export const Route = createFileRoute('/_auth/_shell/smartLamp/lightStrategy')({
  validateSearch: validateStripSearch,
  component: StripStrategyPage,
});
