import { createFileRoute } from '@tanstack/react-router';
import { SignageDevicePage } from '@/features/signage/device-page';
import { validateSignageSearch } from '@/features/signage/search';

export const Route = createFileRoute('/_auth/_shell/floor-screen/device')({
  validateSearch: validateSignageSearch,
  component: SignageDevicePage,
});
