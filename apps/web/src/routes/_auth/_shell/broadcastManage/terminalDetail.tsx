import { createFileRoute } from '@tanstack/react-router';
import { TerminalDetailPage } from '@/features/broadcast/terminal-detail-page';
import { validateIdSearch } from '@/navigation/search-params';

export const Route = createFileRoute('/_auth/_shell/broadcastManage/terminalDetail')({
  validateSearch: validateIdSearch,
  component: TerminalDetailPage,
});
