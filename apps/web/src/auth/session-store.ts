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
}

const empty = (): SessionState => ({ token: getToken(), name: '', avatar: '', introduction: '', isAdmin: false, roles: [], buttons: [] });

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
    const result = await post<LoginResult>('/user/login', { username: username.trim(), password });
    setToken(result.token);
    setMenuList(menuListOf(result));
    useSession.setState({ ...empty(), token: result.token });
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
    });
    return useSession.getState();
  },

  /**
   * Forgets the session here first (closing the socket, so the server's 'session ended' push for this very logout
   * is not taken for a revocation), then ends it on the server, best effort.
   */
  async logout(): Promise<void> {
    const token = getToken();
    session.reset();
    if (token) await get('/user/logout', undefined, { silent: true, token }).catch(() => undefined);
  },

  reset(): void {
    removeToken();
    clearMenuList();
    useSession.setState({ ...empty(), token: undefined });
    for (const listener of resetListeners) listener();
  },

  /** Other stores (open tabs, the socket) clear themselves when the session ends. */
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
