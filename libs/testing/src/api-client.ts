import type { ApiResponse } from '@sc/contracts';

export interface ApiAnswer<T = unknown> {
  status: number;
  body: ApiResponse<T>;
  headers: Headers;
}

/** A small client for the console API as the browser calls it: bearer token and Accept-Language on every call. */
export class ApiClient {
  token = '';

  constructor(
    readonly baseUrl: string,
    public language = 'en-US',
  ) {}

  async call<T = unknown>(method: 'GET' | 'POST', path: string, body?: unknown, init: RequestInit = {}): Promise<ApiAnswer<T>> {
    const headers = new Headers(init.headers);
    headers.set('Accept-Language', this.language);
    if (this.token) headers.set('Authorization', `Bearer ${this.token}`);
    if (body !== undefined && !(body instanceof FormData)) headers.set('Content-Type', 'application/json');
    const res = await fetch(`${this.baseUrl}${path}`, {
      ...init,
      method,
      headers,
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: ApiResponse<T>;
    try {
      parsed = JSON.parse(text) as ApiResponse<T>;
    } catch {
      parsed = { code: res.status, data: text as unknown as T, message: text };
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  get<T = unknown>(path: string, init?: RequestInit): Promise<ApiAnswer<T>> {
    return this.call<T>('GET', path, undefined, init);
  }

  post<T = unknown>(path: string, body?: unknown, init?: RequestInit): Promise<ApiAnswer<T>> {
    return this.call<T>('POST', path, body ?? {}, init);
  }

  /** Signs in and keeps the token; fails the test when sign-in is refused. */
  async login(username: string, password: string): Promise<this> {
    const answer = await this.post<{ token: string }>('/api/user/login', { username, password });
    if (answer.body.code !== 200) throw new Error(`login ${username} failed: ${answer.status} ${answer.body.message}`);
    this.token = answer.body.data.token;
    return this;
  }

  as(token: string, language = this.language): ApiClient {
    const other = new ApiClient(this.baseUrl, language);
    other.token = token;
    return other;
  }
}
