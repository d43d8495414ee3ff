import { createFileRoute } from '@tanstack/react-router';
import { VideoEquipmentPage } from '@/features/video/equipment-page';
import { validateCameraSearch } from '@/features/video/search';

export const Route = createFileRoute('/_auth/_shell/realVideo/equipment')({
  validateSearch: validateCameraSearch,
  component: VideoEquipmentPage,
});
