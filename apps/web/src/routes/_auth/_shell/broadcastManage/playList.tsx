import { createFileRoute } from '@tanstack/react-router';
import { PlaylistPage } from '@/features/broadcast/playlist-page';

export const Route = createFileRoute('/_auth/_shell/broadcastManage/playList')({
  component: PlaylistPage,
});
