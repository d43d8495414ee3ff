import { WAITING_PROGRESS_MS, fetchInTurn, slots } from './downloads';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('slots', () => {
  it('counts the time some work was under way, once however many ran together, and not the waiting', async () => {
    const slot = slots(2);
    // Four pieces of 100 ms, two at a time: about 200 ms under way, though 400 ms of work ran.
    const start = performance.now();
    await Promise.all([1, 2, 3, 4].map(() => slot(() => pause(100))));
    const wall = performance.now() - start;
    await pause(150);
    // Idle time afterwards is not counted; a failure counts as a download that failed.
    await expect(slot(() => Promise.reject(new Error('checksum mismatch')))).rejects.toThrow('checksum mismatch');
    const stats = slot.stats();
    expect(stats.downloadsDone).toBe(4);
    expect(stats.downloadsFailed).toBe(1);
    expect(stats.downloadBusyMs).toBeGreaterThanOrEqual(195);
    // At most the wall time of the four (the sum of the pieces would be twice that), and not the idle time after.
    expect(stats.downloadBusyMs).toBeLessThanOrEqual(Math.ceil(wall) + 5);
    // The work itself adds up: four pieces of at least 100 ms each.
    expect(stats.downloadWorkMs).toBeGreaterThanOrEqual(395);
  });

  it('counts work still under way up to now', async () => {
    const slot = slots(1);
    const running = slot(() => pause(120));
    await pause(60);
    expect(slot.stats().downloadBusyMs).toBeGreaterThanOrEqual(50);
    expect(slot.stats().downloadsDone).toBe(0);
    await running;
    expect(slot.stats().downloadsDone).toBe(1);
  });
});

describe('fetchInTurn', () => {
  afterEach(() => jest.useRealTimers());

  it('says its download is under way while it waits for its turn, and stops once the turn came', async () => {
    jest.useFakeTimers();
    const slot = slots(1);
    let release!: () => void;
    const busy = slot(() => new Promise<void>((resolve) => (release = resolve)));
    const progress: number[] = [];
    // No files: the fetch itself ends at once when its turn comes.
    const fetched = fetchInTurn(slot, [], (received) => progress.push(received));
    await jest.advanceTimersByTimeAsync(WAITING_PROGRESS_MS * 2.5);
    expect(progress).toEqual([0, 0]);
    release();
    await busy;
    await fetched;
    await jest.advanceTimersByTimeAsync(WAITING_PROGRESS_MS * 3);
    expect(progress).toEqual([0, 0]);
  });
});
