import { createFileRoute, redirect } from '@tanstack/react-router';
import { pageToReturnTo, safeRedirect } from '@/auth/return-to';
import { getToken } from '@/auth/token';
import { LoginPage } from '@/features/login/login-page';

export interface LoginSearch {
  redirect?: string;
}

export const Route = createFileRoute('/login')({
  validateSearch: (search: Record<string, unknown>): LoginSearch => ({ redirect: pageToReturnTo(search.redirect) }),
  // Spec section 2: a signed-in visitor opening /login goes straight through.
  beforeLoad: ({ search }) => {
    if (getToken()) throw redirect({ href: safeRedirect(search.redirect) });
  },
  component: LoginPage,
});
