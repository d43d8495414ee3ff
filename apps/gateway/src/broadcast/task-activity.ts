import type { EntityManager } from 'typeorm';
import { BroadcastTaskMode, PlaybackMode } from '@sc/contracts';
import { AppException } from '../common/app-exception';

/**
 * True (over broadcast_task t) while a task has not ended, so the terminals may still fetch or play its media
 * (docs/broadcast-media.md). A stopped task has ended. An immediate broadcast has not while it cycles, while its list
 * has not played once from its sending, or while a terminal still plays it (by its wire id, taskWireId): immediateTimeStatus in SQL. A scheduled
 * task has not while it has no last day, or until that day is over in every time zone (its terminals' zones are
 * their regions': the day ends last at UTC-12, 12:00 UTC the day after).
 */
export const TASK_NOT_ENDED = `(t.stopped_at IS NULL AND CASE t.task_mode
    WHEN '${BroadcastTaskMode.Immediate}' THEN t.playback_mode <> '${PlaybackMode.Normal}'
      OR t.created_at + (SELECT coalesce(sum((m->>'durationMs')::bigint), 0) FROM jsonb_array_elements(t.media) m) * interval '1 millisecond' > now()
      OR EXISTS (SELECT 1 FROM broadcast_terminal bt WHERE bt.playing IS NOT NULL AND bt.playing->>'taskId' = 'task-' || t.id)
    ELSE t.schedule->>'endDate' IS NULL
      OR ((t.schedule->>'endDate')::date + 1)::timestamp AT TIME ZONE 'UTC' + interval '12 hours' > now()
  END)`;

/** Task names shown in a refusal at most; the rest are counted. */
const NAMES_SHOWN = 5;

/**
 * Refuses (409, `key` with the tasks' names) while a task that has not ended names a medium or a playlist:
 * `condition` over broadcast_task t with `$1`. The caller holds the medium or playlist locked (FOR UPDATE), and tasks
 * lock what they take (FOR SHARE), so no task takes it between this check and the deletion.
 */
export async function refuseWhileTasksName(
  tx: EntityManager,
  condition: string,
  param: unknown,
  key: 'mediaInTasks' | 'playlistInTasks',
): Promise<void> {
  const rows: { name: string; total: number }[] = await tx.query(
    `SELECT t.task_name AS name, count(*) OVER ()::int AS total FROM broadcast_task t
      WHERE ${condition} AND ${TASK_NOT_ENDED} ORDER BY t.id DESC LIMIT ${NAMES_SHOWN}`,
    [param],
  );
  if (rows.length === 0) return;
  const more = rows[0].total - rows.length;
  throw AppException.conflict(key, { names: rows.map((r) => `"${r.name}"`).join(', ') + (more > 0 ? ` (+${more})` : '') });
}
