import { create } from 'zustand';
import { parsePermissionContent, type Button, type LoginResult, type UserInfo } from '@sc/contracts';
import { get, post } from '@/api/request';
import { clearMenuList, getToken, removeToken, setMenuList, setToken } from './token';

export interface SessionState {
  token: string | undefined;
  name: string;
  avatar: string;
  introduction: string;
  isAdmin: boolean;
  /** Empty until user info has loaded: the router guard loads it once per page load. */
  roles: string[];
  buttons: Button[];
  /** The server said this session is over (code -1 or the socket); nothing refreshes on its own until a new sign-in. */
  ended: boolean;
}

const empty = (): SessionState => ({
  token: getToken(),
  name: '',
  avatar: '',
  introduction: '',
  isAdmin: false,
  roles: [],
  buttons: [],
  ended: false,
});

export const useSession = create<SessionState>(() => empty());

export class SessionError extends Error {}

/** The permission names of the login answer or user info; administrators always count as Admin. */
function menuListOf({ isAdmin, content }: Pick<LoginResult, 'isAdmin' | 'content'>): string[] {
  const names = parsePermissionContent(content);
  return [...new Set(isAdmin === 1 ? ['Admin', ...names] : names)];
}

export const session = {
  state: () => useSession.getState(),

  async login(username: string, password: string): Promise<void> {
    // Spec section 5: the user name is trimmed before sending.
    const result = await post<LoginResult>('/user/login', { username: username.trim(), password }, { anonymous: true });
    setToken(result.token);
    setMenuList(menuListOf(result));
    session.forget();
  },

  /**
   * Whether the roles in memory belong to the token in the cookie. Another tab may have signed out and in as someone
   * else since they were loaded: then this tab must forget them and load the new user's.
   */
  isCurrent(): boolean {
    const state = useSession.getState();
    return state.roles.length > 0 && state.token === getToken();
  },

  /** Spec section 4: a token without roles loads user info. Throws with the message to show when that fails. */
  async loadInfo(): Promise<SessionState> {
    const info = await get<UserInfo | null>('/user/info', undefined, { silent: true });
    if (!info) throw new SessionError('messages:verificationFailed');
    if (!Array.isArray(info.roles) || info.roles.length === 0) throw new SessionError('messages:rolesMissing');
    // The menu list follows the server, also for sessions that did not start on this login page (/auth-redirect).
    setMenuList(menuListOf(info));
    useSession.setState({
      token: getToken(),
      name: info.name,
      avatar: info.avatar,
      introduction: info.introduction,
      isAdmin: info.isAdmin === 1,
      roles: info.roles,
      buttons: info.buttons ?? [],
      ended: false,
    });
    return useSession.getState();
  },

  /**
   * Forgets the session here first (closing the socket, so the server's 'session ended' push for this very logout
   * is not taken for a revocation), then ends it on the server without waiting: the user is on the login page at once.
   */
  logout(): void {
    const token = getToken();
    session.reset();
    if (token) void get('/user/logout', undefined, { silent: true, token }).catch(() => undefined);
  },

  /** Ends the session in this tab: token, menu list, user, and everything registered with onReset. */
  reset(): void {
    removeToken();
    clearMenuList();
    session.forget();
  },

  /** Forgets the user held in memory (and their tabs, cached data and socket), keeping the cookie. */
  forget(): void {
    useSession.setState(empty());
    for (const listener of resetListeners) listener();
  },

  markEnded(): void {
    useSession.setState({ ended: true });
  },

  /** Open tabs, cached data and the socket belong to one user: they clear themselves when the session ends. */
  onReset(listener: () => void): void {
    resetListeners.add(listener);
  },
};

const resetListeners = new Set<() => void>();

export function hasButton(state: Pick<SessionState, 'buttons'>, button: Button): boolean {
  return state.buttons.includes(button);
}

/** Button-level permission of the signed-in user; the server refuses the rest anyway. */
export function useButton(button: Button): boolean {
  return useSession((s) => s.buttons.includes(button));
}
