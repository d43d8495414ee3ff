import { createFileRoute, redirect } from '@tanstack/react-router';
import { getToken } from '@/auth/token';
import { LoginPage } from '@/features/login/login-page';

export interface LoginSearch {
  redirect?: string;
}

export const Route = createFileRoute('/login')({
  validateSearch: (search: Record<string, unknown>): LoginSearch => ({
    redirect: typeof search.redirect === 'string' && search.redirect.startsWith('/') ? search.redirect : undefined,
  }),
  // Spec section 2: a signed-in visitor opening /login goes straight through.
  beforeLoad: ({ search }) => {
    if (getToken()) throw redirect({ href: safeRedirect(search.redirect) });
  },
  component: LoginPage,
});

/** Only paths of this console: never another site, never back to the login page itself. */
export function safeRedirect(target: string | undefined): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/login')) return '/';
  return target;
}
