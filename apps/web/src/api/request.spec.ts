const shown: string[] = [];
jest.mock('@/components/notify', () => ({ notifyError: (message: string) => shown.push(message) }));
jest.mock('@/i18n', () => ({ apiLanguage: () => 'en-US', i18next: { t: (key: string) => key } }));
jest.mock('@/auth/logged-out-dialog', () => ({ confirmLoggedOut: () => undefined }));
jest.mock('@/auth/token', () => ({ getToken: () => 'token', sessionEndedHere: () => false }));
jest.mock('@/realtime/feed-gate', () => ({ afterFeedsJoined: () => Promise.resolve() }));

import { post } from './request';

/** An answer whose body arrives only after `ms`, and never once the request's signal is aborted. */
function slowAnswer(ms: number, body: unknown) {
  return (_url: unknown, init: { signal?: AbortSignal }) =>
    Promise.resolve({
      status: 200,
      json: () =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(() => resolve(body), ms);
          init.signal?.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(new DOMException('The operation was aborted.', 'AbortError'));
          });
        }),
    });
}

describe('request', () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = realFetch;
    shown.length = 0;
  });

  it('shows nothing for a call given up while its answer was being read (a cancelled query), and rejects with the abort', async () => {
    globalThis.fetch = slowAnswer(200, { code: 200, data: [] }) as unknown as typeof fetch;
    const controller = new AbortController();
    const call = post('/led/taskScreens', { id: 1 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(shown).toEqual([]);
  });

  it('still shows a network error for an answer that is not the envelope, when nobody gave the call up', async () => {
    globalThis.fetch = slowAnswer(1, 'not json') as unknown as typeof fetch;
    await expect(post('/led/taskScreens', { id: 1 })).rejects.toMatchObject({ message: 'messages:networkError' });
    expect(shown).toEqual(['messages:networkError']);
  });
});
