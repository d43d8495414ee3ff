import { createFileRoute } from '@tanstack/react-router';
import { ErrorPage } from '@/features/errors/error-page';

export const Route = createFileRoute('/_auth/401')({
  component: () => <ErrorPage kind="unauthorized" />,
});
