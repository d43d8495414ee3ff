import { createFileRoute } from '@tanstack/react-router';
import { LedRealTimePlayPage } from '@/features/led/real-time-play-page';
import { validateLedSearch } from '@/features/led/search';

export const Route = createFileRoute('/_auth/_shell/ledManage/ledRealTimePlay')({
  validateSearch: validateLedSearch,
  component: LedRealTimePlayPage,
});
