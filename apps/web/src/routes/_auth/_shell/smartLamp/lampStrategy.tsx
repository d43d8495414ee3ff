import { createFileRoute } from '@tanstack/react-router';
import { StrategyPage } from '@/features/strategy/strategy-page';
import { validateStrategySearch } from '@/features/strategy/search';

export const Route = createFileRoute('/_auth/_shell/smartLamp/lampStrategy')({
  validateSearch: validateStrategySearch,
  component: StrategyPage,
});
