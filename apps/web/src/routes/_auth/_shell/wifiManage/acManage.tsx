import { createFileRoute } from '@tanstack/react-router';
import { AcManagePage } from '@/features/wifi/wifi-device-page';
import { validateWifiDeviceSearch } from '@/features/wifi/search';

export const Route = createFileRoute('/_auth/_shell/wifiManage/acManage')({
  validateSearch: validateWifiDeviceSearch,
  component: AcManagePage,
});
