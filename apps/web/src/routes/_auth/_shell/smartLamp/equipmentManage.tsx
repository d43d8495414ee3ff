import { createFileRoute } from '@tanstack/react-router';
import { EquipmentManagePage } from '@/features/lighting/equipment-manage-page';
import { validateEquipmentSearch } from '@/features/lighting/search';

export const Route = createFileRoute('/_auth/_shell/smartLamp/equipmentManage')({
  validateSearch: validateEquipmentSearch,
  component: EquipmentManagePage,
});
