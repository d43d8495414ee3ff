import { createFileRoute } from '@tanstack/react-router';
import { LampControlPage } from '@/features/lighting/lamp-control-page';
import { validateLampControlSearch } from '@/features/lighting/search';

export const Route = createFileRoute('/_auth/_shell/smartLamp/lampControl')({
  validateSearch: validateLampControlSearch,
  component: LampControlPage,
});
