import { createFileRoute } from '@tanstack/react-router';
import { EnergyPage } from '@/features/energy/energy-page';
import { validateEnergySearch } from '@/features/energy/search';

export const Route = createFileRoute('/_auth/_shell/smartLamp/energy')({
  validateSearch: validateEnergySearch,
  component: EnergyPage,
});
