import { createFileRoute } from '@tanstack/react-router';
import { ApManagePage } from '@/features/wifi/wifi-device-page';
import { validateWifiDeviceSearch } from '@/features/wifi/search';

export const Route = createFileRoute('/_auth/_shell/wifiManage/apManage')({
  validateSearch: validateWifiDeviceSearch,
  component: ApManagePage,
});
