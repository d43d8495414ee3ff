import { createFileRoute } from '@tanstack/react-router';
import { LedEquipmentPage } from '@/features/led/led-equipment-page';
import { validateLedSearch } from '@/features/led/search';

export const Route = createFileRoute('/_auth/_shell/ledManage/ledEquipmentManage')({
  validateSearch: validateLedSearch,
  component: LedEquipmentPage,
});
