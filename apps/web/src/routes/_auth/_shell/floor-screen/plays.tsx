import { createFileRoute } from '@tanstack/react-router';
import { PlayReportPage } from '@/features/signage-plays/plays-page';
import { validatePlaySearch } from '@/features/signage-plays/search';

export const Route = createFileRoute('/_auth/_shell/floor-screen/plays')({
  validateSearch: validatePlaySearch,
  component: PlayReportPage,
});
