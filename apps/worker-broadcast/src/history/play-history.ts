import type { PoolClient } from 'pg';
import { DeviceFamily, TerminalOccupancy, type TerminalPlaying } from '@sc/contracts';
import type { ChangeObserver, DeviceEvent, RowChange } from '@sc/device-runtime';

type TerminalChange = RowChange<DeviceFamily.Broadcast>;

/** What a terminal is busy with, as one stretch of history: a call, a title, or one medium of a task. */
interface Stretch {
  occupancy: TerminalOccupancy.Task | TerminalOccupancy.Intercom;
  title: string;
  taskId: string | null;
  media: string | null;
  since: string | null;
}

function stretchOf(occupancy: TerminalOccupancy | undefined, playing: TerminalPlaying | null | undefined): Stretch | null {
  if (!occupancy || occupancy === TerminalOccupancy.Idle) return null;
  return { occupancy, title: playing?.title ?? '', taskId: playing?.taskId ?? null, media: playing?.media ?? null, since: playing?.since ?? null };
}

function sameStretch(a: Stretch | null, b: Stretch | null): boolean {
  if (!a || !b) return a === b;
  return a.occupancy === b.occupancy && a.title === b.title && a.taskId === b.taskId && a.media === b.media;
}

/** When the change happened: the time of the device's last message in the write (the write's own time otherwise). */
function timeOf(events: readonly DeviceEvent[] | undefined, now: string): string {
  for (let i = (events?.length ?? 0) - 1; i >= 0; i--) {
    const event = events![i];
    if ('at' in event && event.at) return event.at;
  }
  return now;
}

/** The history rows one write leads to: stretches that ended (by terminal) and stretches that began. */
export function historyOf(
  changes: readonly TerminalChange[],
  events: ReadonlyMap<number, readonly DeviceEvent[]>,
  now: string,
): { ended: { deviceId: number; at: string }[]; began: ({ deviceId: number; at: string } & Stretch)[] } {
  const ended: { deviceId: number; at: string }[] = [];
  const began: ({ deviceId: number; at: string } & Stretch)[] = [];
  for (const change of changes) {
    if (!('occupancy' in change.changed) && !('playing' in change.changed)) continue;
    const before = stretchOf(change.before.occupancy, change.before.playing);
    const after = stretchOf(
      change.changed.occupancy ?? change.before.occupancy,
      'playing' in change.changed ? change.changed.playing : change.before.playing,
    );
    if (sameStretch(before, after)) continue;
    const at = timeOf(events.get(change.recordId), now);
    ended.push({ deviceId: change.recordId, at });
    // It started when the terminal says, unless that is later than its report (a clock ahead).
    if (after) began.push({ deviceId: change.recordId, ...after, at: after.since && after.since < at ? after.since : at });
  }
  return { ended, began };
}

/**
 * The terminals' play history (broadcast_play_history), written in the intake's transaction: a stretch of occupancy
 * ends when the terminal reports idle, something else, or goes offline, and a new one begins with what it plays now.
 */
export class PlayHistoryRecorder implements ChangeObserver<DeviceFamily.Broadcast> {
  readonly family = DeviceFamily.Broadcast;

  async observe(client: PoolClient, changes: readonly TerminalChange[], events: ReadonlyMap<number, readonly DeviceEvent[]>): Promise<void> {
    const { ended, began } = historyOf(changes, events, new Date().toISOString());
    if (ended.length > 0) {
      await client.query(
        `UPDATE broadcast_play_history h SET ended_at = GREATEST(e.at, h.started_at)
           FROM unnest($1::int[], $2::timestamptz[]) AS e(device_id, at)
          WHERE h.device_id = e.device_id AND h.ended_at IS NULL`,
        [ended.map((e) => e.deviceId), ended.map((e) => e.at)],
      );
    }
    if (began.length > 0) {
      await client.query(
        `INSERT INTO broadcast_play_history (device_id, occupancy, title, task_id, media, started_at)
         SELECT * FROM unnest($1::int[], $2::varchar[], $3::varchar[], $4::varchar[], $5::varchar[], $6::timestamptz[])`,
        [
          began.map((b) => b.deviceId),
          began.map((b) => b.occupancy),
          began.map((b) => b.title.slice(0, 128)),
          began.map((b) => b.taskId),
          began.map((b) => b.media?.slice(0, 128) ?? null),
          began.map((b) => b.at),
        ],
      );
    }
  }
}
