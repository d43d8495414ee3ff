import { createFileRoute } from '@tanstack/react-router';
import { ImmediateBroadcastPage } from '@/features/broadcast/immediate-broadcast-page';
import { validateImmediateTaskSearch } from '@/features/broadcast/search';

export const Route = createFileRoute('/_auth/_shell/broadcastManage/immediatelyBroadcastTask')({
  validateSearch: validateImmediateTaskSearch,
  component: ImmediateBroadcastPage,
});
