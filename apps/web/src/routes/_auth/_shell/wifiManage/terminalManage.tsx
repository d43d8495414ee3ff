import { createFileRoute } from '@tanstack/react-router';
import { TerminalPage } from '@/features/wifi/terminal-page';
import { validateTerminalSearch } from '@/features/wifi/search';

export const Route = createFileRoute('/_auth/_shell/wifiManage/terminalManage')({
  validateSearch: validateTerminalSearch,
  component: TerminalPage,
});
