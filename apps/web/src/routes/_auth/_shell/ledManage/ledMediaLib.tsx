import { createFileRoute } from '@tanstack/react-router';
import { LedMediaLibPage } from '@/features/led/media-lib-page';

export const Route = createFileRoute('/_auth/_shell/ledManage/ledMediaLib')({
  component: LedMediaLibPage,
});
