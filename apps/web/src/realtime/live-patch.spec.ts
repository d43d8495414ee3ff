// Live changes against a real query client: a change that arrives while the list is being read is not lost when that
// read's (older) answer lands.
import type { QueryClient } from '@tanstack/react-query';
import { patchLive } from './live-patch';
import { settle, watchedList, type WatchedList } from './watched-list.fixture';

type Rows = Record<string, number>;

let list: WatchedList<Rows>;
let client: QueryClient;
let reads: WatchedList<Rows>['reads'];

beforeEach(async () => {
  list = await watchedList<Rows>(['terminals', 'page']);
  ({ client, reads } = list);
});

afterEach(() => list.stop());

const shown = () => list.observer.getCurrentResult().data;
const plays = (id: string, count: number) => (rows: Rows) => ({ ...rows, [id]: count });
const answer = (index: number, rows: Rows) => list.answer(index, rows);

describe('patchLive: a live change is kept even when a read on its way answers with older data', () => {
  it('writes a change into the cached rows at once', async () => {
    await answer(0, { a: 0 });
    patchLive(client, ['terminals'], plays('a', 2));
    expect(shown()).toEqual({ a: 2 });
  });

  it('writes a change that came during the first read into its answer', async () => {
    patchLive(client, ['terminals'], plays('a', 2));
    expect(shown()).toBeUndefined();
    await answer(0, { a: 0, b: 0 });
    expect(shown()).toEqual({ a: 2, b: 0 });
  });

  it('writes changes that came during a re-read into its answer, in their order, once', async () => {
    await answer(0, { a: 0 });
    void client.invalidateQueries({ queryKey: ['terminals'] });
    await settle();
    expect(reads).toHaveLength(2);
    patchLive(client, ['terminals'], plays('a', 1));
    patchLive(client, ['terminals'], plays('a', 2));
    // Shown at once on the rows already there, and again on the (older) answer.
    expect(shown()).toEqual({ a: 2 });
    await answer(1, { a: 0, c: 5 });
    expect(shown()).toEqual({ a: 2, c: 5 });
    // The next read's answer is the server's own: the changes were written once.
    void client.invalidateQueries({ queryKey: ['terminals'] });
    await settle();
    await answer(2, { a: 7 });
    expect(shown()).toEqual({ a: 7 });
  });

  it('forgets the changes of a read that failed, and leaves other queries alone', async () => {
    patchLive(client, ['alarms'], plays('a', 9));
    reads[0].fail(new Error('network'));
    patchLive(client, ['terminals'], plays('a', 1));
    await settle();
    void list.observer.refetch();
    await settle();
    await answer(1, { a: 0 });
    expect(shown()).toEqual({ a: 0 });
  });
});
