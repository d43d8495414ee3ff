import { createFileRoute } from '@tanstack/react-router';
import { MediaLibraryPage } from '@/features/broadcast/media-library-page';

export const Route = createFileRoute('/_auth/_shell/broadcastManage/mediaLibrary')({
  component: MediaLibraryPage,
});
