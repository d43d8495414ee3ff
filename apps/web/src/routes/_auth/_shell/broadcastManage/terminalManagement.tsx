import { createFileRoute } from '@tanstack/react-router';
import { TerminalManagePage } from '@/features/broadcast/terminal-manage-page';
import { validateTerminalSearch } from '@/features/broadcast/search';

export const Route = createFileRoute('/_auth/_shell/broadcastManage/terminalManagement')({
  validateSearch: validateTerminalSearch,
  component: TerminalManagePage,
});
