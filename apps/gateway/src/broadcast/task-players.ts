import type { DataSource, EntityManager } from 'typeorm';
import { TASK_PLAYERS_SHOWN, taskWireId, type TaskPlayer } from '@sc/contracts';

/**
 * The terminals playing each of the given tasks now, by the task id they report (`playing.taskId`, indexed), at most
 * TASK_PLAYERS_SHOWN per task in name order, with how many they are. A terminal gone offline plays nothing.
 */
export async function taskPlayers(
  db: DataSource | EntityManager,
  taskIds: readonly number[],
): Promise<Map<number, { players: TaskPlayer[]; count: number }>> {
  const byTask = new Map<number, { players: TaskPlayer[]; count: number }>();
  if (taskIds.length === 0) return byTask;
  const wire = new Map(taskIds.map((id) => [taskWireId(id), id]));
  const rows: (TaskPlayer & { taskId: string; total: number })[] = await db.query(
    `SELECT * FROM (
       SELECT t.playing->>'taskId' AS "taskId", d.id, d.code AS "terminalId", d.name AS "terminalName", t.playing->>'media' AS media,
              coalesce((t.playing->>'paused')::boolean, false) AS paused,
              row_number() OVER (PARTITION BY t.playing->>'taskId' ORDER BY lower(d.name), d.id) AS n,
              count(*) OVER (PARTITION BY t.playing->>'taskId')::int AS total
         FROM broadcast_terminal t JOIN device d ON d.id = t.device_id
        WHERE t.playing IS NOT NULL AND t.playing->>'taskId' = ANY($1::text[])
     ) playing WHERE n <= ${TASK_PLAYERS_SHOWN} ORDER BY n`,
    [[...wire.keys()]],
  );
  for (const { taskId, total, id, terminalId, terminalName, media, paused } of rows) {
    const entry = byTask.get(wire.get(taskId)!) ?? { players: [], count: total };
    entry.players.push({ id, terminalId, terminalName, media, paused });
    byTask.set(wire.get(taskId)!, entry);
  }
  return byTask;
}
