import { createFileRoute } from '@tanstack/react-router';
import { EquipmentInquiryPage } from '@/features/alarm-intercom/equipment-inquiry-page';
import { validateEndpointSearch } from '@/features/alarm-intercom/search';

export const Route = createFileRoute('/_auth/_shell/alarmManage/equipmentInquiry')({
  validateSearch: validateEndpointSearch,
  component: EquipmentInquiryPage,
});
