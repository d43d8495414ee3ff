import { createFileRoute } from '@tanstack/react-router';
import { TerminalDetailPage } from '@/features/broadcast/terminal-detail-page';
import { validateTerminalDetailSearch } from '@/features/broadcast/search';

export const Route = createFileRoute('/_auth/_shell/broadcastManage/terminalDetail')({
  validateSearch: validateTerminalDetailSearch,
  component: TerminalDetailPage,
});
