import Cookies from 'js-cookie';

/**
 * The session token lives in the cookie `Token` (spec section 3, stored preferences), so scripts of the console can
 * read it: that is where the spec keeps it. The server never reads this cookie: requests carry the token in their
 * `Authorization` header and sockets in their handshake, so a request another site makes the browser send, cookie
 * and all, is not signed in. SameSite=Strict keeps the cookie off such requests anyway, and Secure keeps it off plain
 * http when the console is served over https.
 */
const TOKEN_COOKIE = 'Token';
/** Permission names from the login answer, kept for the `/` redirect (spec section 2). */
const MENU_LIST_KEY = 'menuList';

export function getToken(): string | undefined {
  return Cookies.get(TOKEN_COOKIE) || undefined;
}

/**
 * Whether this tab ended its own session (log-out, Re-Login) and nobody has signed in since. The page being left
 * may still start calls in that moment (its lists refetch when the cache is cleared); they have no session to
 * belong to and are not sent. A cookie that went away by other means (another tab logged out) is not this: those
 * calls still go, and their answer offers to log in again.
 */
let endedHere = false;

export function sessionEndedHere(): boolean {
  return endedHere && !getToken();
}

export function setToken(token: string): void {
  endedHere = false;
  Cookies.set(TOKEN_COOKIE, token, { sameSite: 'Strict', secure: window.location.protocol === 'https:' });
}

export function removeToken(): void {
  endedHere = true;
  Cookies.remove(TOKEN_COOKIE);
}

export function getMenuList(): string[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(MENU_LIST_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((n): n is string => typeof n === 'string') : [];
  } catch {
    return [];
  }
}

export function setMenuList(names: string[]): void {
  localStorage.setItem(MENU_LIST_KEY, JSON.stringify(names));
}

export function clearMenuList(): void {
  localStorage.removeItem(MENU_LIST_KEY);
}
