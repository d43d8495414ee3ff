import { createFileRoute } from '@tanstack/react-router';
import { ErrorPage } from '@/features/errors/error-page';

export const Route = createFileRoute('/_auth/404')({
  component: () => <ErrorPage kind="notFound" />,
});
