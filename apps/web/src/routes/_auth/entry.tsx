import { createFileRoute } from '@tanstack/react-router';
import { EntryPage } from '@/features/entry/entry-page';

export const Route = createFileRoute('/_auth/entry')({
  component: EntryPage,
});
