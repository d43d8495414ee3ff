import type { RadarDetectedEvent, RadarLampsChangedEvent, RaisedLamp } from '@sc/contracts';

/** Detections shown at most. */
export const DETECTIONS_SHOWN = 30;

/**
 * Where a lamp of a detection is: `waiting` for its event's open interval, `raised` (since `at`, until `until`),
 * `returned` to `level` (at `at`), or `kept`: its open interval passed while it was already at or above the level, so
 * it was left as it was.
 */
export type FeedLampState =
  { state: 'waiting'; at: null } | { state: 'raised'; at: string } | { state: 'kept'; at: string } | { state: 'returned'; at: string; level: number };

export type FeedLamp = RaisedLamp & { now: FeedLampState };

/** One detection of the feed and where each of its lamps is now. */
export type FeedDetection = Omit<RadarDetectedEvent, 'lamps'> & { lamps: FeedLamp[] };

const sameTime = (a: string | null, b: string) => a !== null && Date.parse(a) === Date.parse(b);

/** A detection came: first in the feed, its lamps raised now or waiting for their open interval. */
export function detectionArrived(feed: readonly FeedDetection[], event: RadarDetectedEvent): FeedDetection[] {
  const lamps = event.lamps.map((lamp): FeedLamp => ({
    ...lamp,
    now: lamp.after > 0 ? { state: 'waiting', at: null } : { state: 'raised', at: event.at },
  }));
  return [{ ...event, lamps }, ...feed].slice(0, DETECTIONS_SHOWN);
}

/**
 * Lamps moved: a waiting lamp of the detection that raised it rises (or is kept as it was); a return takes every
 * raised entry of the lamp back (each detection that held it sees it return). Answers the feed itself when nothing in
 * it moved.
 */
export function lampsMoved(feed: readonly FeedDetection[], event: RadarLampsChangedEvent): readonly FeedDetection[] {
  const moves = new Map(event.lamps.map((move) => [move.id, move]));
  let changed = false;
  const next = feed.map((detection) => {
    let touched = false;
    const lamps = detection.lamps.map((lamp): FeedLamp => {
      const move = moves.get(lamp.id);
      if (!move) return lamp;
      if (event.change === 'raised') {
        if (lamp.now.state !== 'waiting' || move.radarId !== detection.radarId || !sameTime(move.detectedAt, detection.at)) return lamp;
        touched = true;
        return move.until === null
          ? { ...lamp, now: { state: 'kept', at: event.at } }
          : { ...lamp, level: move.level as RaisedLamp['level'], byItself: move.byItself, until: move.until, now: { state: 'raised', at: event.at } };
      }
      if (lamp.now.state !== 'raised') return lamp;
      touched = true;
      return { ...lamp, now: { state: 'returned', at: event.at, level: move.level } };
    });
    if (!touched) return detection;
    changed = true;
    return { ...detection, lamps };
  });
  return changed ? next : feed;
}
