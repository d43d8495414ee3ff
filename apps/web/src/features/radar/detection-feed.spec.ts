import { RadarEventId, type RadarDetectedEvent, type RadarLampMove, type RadarLampsChangedEvent, type RaisedLamp } from '@sc/contracts';
import { DETECTIONS_SHOWN, detectionArrived, lampsMoved, type FeedDetection } from './detection-feed';

const lamp = (id: number, overrides: Partial<RaisedLamp> = {}): RaisedLamp => ({
  id,
  code: `RL-${id}`,
  level: 100,
  byItself: false,
  after: 0,
  until: '2026-03-01T10:00:30.000Z',
  ...overrides,
});

const detection = (radarId: number, at: string, lamps: RaisedLamp[], count = 1): RadarDetectedEvent => ({
  family: 'radar',
  radarId,
  code: `R-${radarId}`,
  event: RadarEventId.Pedestrian,
  ts: at,
  at,
  count,
  radarRate: 1,
  lamps,
  dispatchId: 'd-1',
});

const move = (id: number, overrides: Partial<RadarLampMove> = {}): RadarLampMove => ({
  id,
  code: `RL-${id}`,
  level: 0,
  byItself: false,
  radarId: 1,
  radarCode: 'R-1',
  detectedAt: null,
  until: null,
  ...overrides,
});

const changed = (change: RadarLampsChangedEvent['change'], lamps: RadarLampMove[], at: string): RadarLampsChangedEvent => ({
  family: 'radar',
  change,
  lamps,
  at,
});

const states = (feed: readonly FeedDetection[]) => feed.map((d) => d.lamps.map((l) => [l.code, l.now.state, l.now.at]));

describe('the radar detection feed', () => {
  const at = '2026-03-01T10:00:00.000Z';

  it('shows a detection first, its lamps raised at once or waiting for their open interval, and keeps the latest only', () => {
    let feed: FeedDetection[] = [];
    feed = detectionArrived(feed, detection(1, at, [lamp(1), lamp(2, { after: 5 })]));
    expect(states(feed)).toEqual([
      [
        ['RL-1', 'raised', at],
        ['RL-2', 'waiting', null],
      ],
    ]);
    for (let i = 2; i <= DETECTIONS_SHOWN + 1; i++) feed = detectionArrived(feed, detection(1, at, [], i));
    expect(feed).toHaveLength(DETECTIONS_SHOWN);
    expect(feed[0].count).toBe(DETECTIONS_SHOWN + 1);
    expect(feed.some((d) => d.count === 1)).toBe(false);
  });

  it('raises a waiting lamp of the detection that raised it, with its level and return time; a lamp already lit is kept', () => {
    const later = '2026-03-01T10:00:05.000Z';
    const other = '2026-03-01T09:59:58.000Z';
    let feed = detectionArrived([], detection(1, other, [lamp(1, { after: 5 })]));
    feed = detectionArrived(feed, detection(1, at, [lamp(1, { after: 5 }), lamp(2, { after: 5 })]));
    const raised = lampsMoved(
      feed,
      changed(
        'raised',
        [
          move(1, { level: 80, detectedAt: '2026-03-01T10:00:00Z', until: '2026-03-01T10:00:35.000Z' }),
          move(2, { level: 100, detectedAt: at, until: null }),
        ],
        later,
      ),
    );
    expect(states(raised)).toEqual([
      [
        ['RL-1', 'raised', later],
        ['RL-2', 'kept', later],
      ],
      // The older detection's rise is its own (another detectedAt): still waiting.
      [['RL-1', 'waiting', null]],
    ]);
    expect(raised[0].lamps[0]).toMatchObject({ level: 80, until: '2026-03-01T10:00:35.000Z' });
    // A rise of another radar's detection at the same time moves nothing.
    expect(lampsMoved(feed, changed('raised', [move(1, { radarId: 2, detectedAt: at, until: later })], later))).toBe(feed);
  });

  it('returns every raised entry of a lamp with the level and time, and leaves waiting lamps and other lamps alone', () => {
    const back = '2026-03-01T10:00:30.000Z';
    let feed = detectionArrived([], detection(1, at, [lamp(1), lamp(2)]));
    feed = detectionArrived(feed, detection(1, '2026-03-01T10:00:10.000Z', [lamp(1), lamp(3, { after: 60 })], 2));
    const returned = lampsMoved(feed, changed('returned', [move(1, { level: 20 }), move(3)], back));
    expect(states(returned)).toEqual([
      [
        ['RL-1', 'returned', back],
        ['RL-3', 'waiting', null],
      ],
      [
        ['RL-1', 'returned', back],
        ['RL-2', 'raised', at],
      ],
    ]);
    expect(returned[1].lamps[0].now).toEqual({ state: 'returned', at: back, level: 20 });
    // Nothing of the feed moved: the same feed (no new render).
    expect(lampsMoved(returned, changed('returned', [move(9)], back))).toBe(returned);
  });
});
