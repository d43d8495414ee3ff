// A reload after a live change against a real query client: the list is read again even while its first read, maybe
// answered before the change, is still on its way.
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { reloadQueries } from './reload';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

let client: QueryClient;
/** The list's reads, in the order they were made; the test answers them. */
let reads: Array<{ answer: (rows: string[]) => void; signal: AbortSignal }>;
let observer: QueryObserver<string[]>;
let stop: () => void;

beforeEach(async () => {
  client = new QueryClient();
  reads = [];
  observer = new QueryObserver<string[]>(client, {
    queryKey: ['alarms', 'page'],
    queryFn: ({ signal }) => new Promise<string[]>((answer) => reads.push({ answer, signal })),
    retry: false,
    staleTime: Infinity,
  });
  // Watched, as by a page on screen: invalidated queries are read again.
  stop = observer.subscribe(() => undefined);
  await settle();
});

afterEach(() => {
  stop();
  client.clear();
});

/** Asks for the reload and lets the reads it starts go out (without waiting for their answers). */
async function reload(how: () => Promise<void> = () => reloadQueries(client, ['alarms'])): Promise<void> {
  await Promise.race([how(), settle()]);
  await settle();
}

async function answer(index: number, rows: string[]): Promise<void> {
  reads[index].answer(rows);
  await settle();
}

const shown = () => observer.getCurrentResult();

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
