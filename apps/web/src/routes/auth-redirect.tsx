import { createFileRoute, redirect } from '@tanstack/react-router';
import { getToken, setToken } from '@/auth/token';
import { safeRedirect } from '@/auth/return-to';

/**
 * Public entry from the platform's other systems (spec section 2): they pass a token, and optionally the page to
 * open. The token is checked like any other when user info loads; a bad one ends at the login page.
 */
export const Route = createFileRoute('/auth-redirect')({
  validateSearch: (search: Record<string, unknown>) => ({
    token: typeof search.token === 'string' ? search.token : undefined,
    redirect: typeof search.redirect === 'string' ? search.redirect : undefined,
  }),
  beforeLoad: ({ search }) => {
    // A session already open in this browser wins: a link cannot silently switch it to another account.
    if (search.token && !getToken()) setToken(search.token);
    throw redirect({ href: safeRedirect(search.redirect) });
  },
});
