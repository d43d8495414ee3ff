import { afterFeedsJoined, feedJoinStarted } from './feed-gate';

const settled = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setTimeout(resolve, 20));
  return done;
};

describe('feed gate: lists wait for the feeds being joined', () => {
  it('lets a list go at once when no feed waits for the server', async () => {
    expect(await settled(afterFeedsJoined())).toBe(true);
  });

  it('holds a list until every join asked for meanwhile is answered', async () => {
    const first = feedJoinStarted();
    const second = feedJoinStarted();
    const waiting = afterFeedsJoined();
    expect(await settled(waiting)).toBe(false);
    first();
    expect(await settled(waiting)).toBe(false);
    second();
    // Answered twice (an answer and then the socket's loss) counts once.
    second();
    expect(await settled(waiting)).toBe(true);
  });

  it('asks for the feeds of the same render first: a join started right after the call still holds it', async () => {
    const waiting = afterFeedsJoined();
    const answered = feedJoinStarted();
    expect(await settled(waiting)).toBe(false);
    answered();
    expect(await settled(waiting)).toBe(true);
  });

  it('lets a cancelled list go, and never holds one longer than its limit', async () => {
    const answered = feedJoinStarted();
    const cancel = new AbortController();
    const cancelled = afterFeedsJoined(cancel.signal);
    cancel.abort();
    expect(await settled(cancelled)).toBe(true);

    jest.useFakeTimers();
    try {
      const late = afterFeedsJoined();
      await jest.advanceTimersByTimeAsync(1499);
      let done = false;
      void late.then(() => (done = true));
      await jest.advanceTimersByTimeAsync(0);
      expect(done).toBe(false);
      await jest.advanceTimersByTimeAsync(2);
      expect(done).toBe(true);
    } finally {
      jest.useRealTimers();
      answered();
    }
  });
});
