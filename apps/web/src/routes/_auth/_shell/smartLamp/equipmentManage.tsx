import { createFileRoute } from '@tanstack/react-router';
import { EquipmentManagePage } from '@/features/lighting/equipment-manage-page';
import { validateLampSearch } from '@/features/lighting/search';

export const Route = createFileRoute('/_auth/_shell/smartLamp/equipmentManage')({
  validateSearch: validateLampSearch,
  component: EquipmentManagePage,
});
