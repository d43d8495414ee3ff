// A reload after a live change against a real query client: the list is read again even while its first read, maybe
// answered before the change, is still on its way.
import type { QueryClient } from '@tanstack/react-query';
import { reloadQueries } from './reload';
import { settle, watchedList, type WatchedList } from './watched-list.fixture';

let list: WatchedList<string[]>;
let client: QueryClient;
let reads: WatchedList<string[]>['reads'];

beforeEach(async () => {
  list = await watchedList<string[]>(['alarms', 'page']);
  ({ client, reads } = list);
});

afterEach(() => list.stop());

/** Asks for the reload and lets the reads it starts go out (without waiting for their answers). */
async function reload(how: () => Promise<void> = () => reloadQueries(client, ['alarms'])): Promise<void> {
  await Promise.race([how(), settle()]);
  await settle();
}

const answer = (index: number, rows: string[]) => list.answer(index, rows);
const shown = () => list.observer.getCurrentResult();

describe('reloadQueries: a change is read even while the first read is on its way', () => {
  it('drops a first read still on its way and makes it again: the later answer is the one shown', async () => {
    expect(reads).toHaveLength(1);
    // An alarm is raised while the first read is on its way (its answer may predate it).
    await reload();
    expect(reads).toHaveLength(2);
    expect(reads[0].signal.aborted).toBe(true);
    await answer(0, []);
    await answer(1, ['raised']);
    expect(shown().data).toEqual(['raised']);
    expect(shown().isError).toBe(false);
  });

  it('replaces a read of a list that already has rows, and reads a settled list once', async () => {
    await answer(0, ['a']);
    // Settled: one more read.
    await reload();
    expect(reads).toHaveLength(2);
    // On its way, with rows on screen: replaced by a new read.
    await reload();
    expect(reads).toHaveLength(3);
    expect(reads[1].signal.aborted).toBe(true);
    await answer(2, ['a', 'b']);
    expect(shown().data).toEqual(['a', 'b']);
  });

  it('is what invalidateQueries alone misses: it hands the reload the first read already on its way', async () => {
    await reload(() => client.invalidateQueries({ queryKey: ['alarms'] }));
    expect(reads).toHaveLength(1);
    await answer(0, []);
    expect(shown().data).toEqual([]);
  });
});
