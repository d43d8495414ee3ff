import { createFileRoute } from '@tanstack/react-router';
import { VideoWallPage } from '@/features/video/video-page';

export const Route = createFileRoute('/_auth/_shell/realVideo/video')({
  component: VideoWallPage,
});
