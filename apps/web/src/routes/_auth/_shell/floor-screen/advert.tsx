import { createFileRoute } from '@tanstack/react-router';
import { AdvertPage } from '@/features/signage-materials/advert-page';

export const Route = createFileRoute('/_auth/_shell/floor-screen/advert')({
  component: AdvertPage,
});
