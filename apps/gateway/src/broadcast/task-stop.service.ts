import { Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { BROADCAST_FAMILY, taskWireId, type TaskStopResult } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import type { Caller } from '../common/request-context';
import { DeviceControlService } from '../dispatch/device-control.service';
import { InjectDb } from '../infra/database';
import { TERMINAL_SELECTION } from './terminals.service';

/**
 * Stops a broadcast task on its terminals: the `cancelTask` command (the terminal forgets the task, stopping it if it
 * plays it; what it played before a first-priority broadcast plays on) to every terminal of the task that still
 * exists, through the command ledger, and the task marked stopped in the same transaction. A stopped task has
 * ended: it no longer keeps its media and playlist from deletion.
 */
@Injectable()
export class BroadcastTaskStopService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    private readonly devices: DeviceControlService,
  ) {}

  async stop(caller: Caller, id: number): Promise<TaskStopResult> {
    const [task]: { stopped: boolean; terminals: number[] }[] = await this.db.query(
      `SELECT t.stopped_at IS NOT NULL AS stopped,
              ARRAY(SELECT d.id FROM device d JOIN broadcast_terminal bt ON bt.device_id = d.id WHERE d.id = ANY(t.terminal_ids) ORDER BY d.id) AS terminals
         FROM broadcast_task t WHERE t.id = $1`,
      [id],
    );
    if (!task) throw AppException.notFound();
    if (task.stopped) throw AppException.conflict('taskAlreadyStopped');
    const markStopped = async (tx: Pick<DataSource, 'query'>) => {
      const [, affected] = (await tx.query(`UPDATE broadcast_task SET stopped_at = now(), stopped_by = $2 WHERE id = $1 AND stopped_at IS NULL`, [
        id,
        caller.username,
      ])) as [unknown, number];
      // Stopped by someone else meanwhile.
      if (!affected) throw AppException.conflict('taskAlreadyStopped');
    };
    if (task.terminals.length === 0) {
      await markStopped(this.db);
      return { id, dispatchId: null };
    }
    const { dispatchId } = await this.devices.dispatch(
      caller,
      BROADCAST_FAMILY,
      { ids: task.terminals },
      'cancelTask',
      TERMINAL_SELECTION,
      async (tx) => {
        await markStopped(tx);
        return {
          params: { taskId: taskWireId(id) },
          recorded: (t, dispatch) => t.query(`UPDATE broadcast_task SET stop_dispatch_id = $2 WHERE id = $1`, [id, dispatch]).then(() => undefined),
        };
      },
    );
    return { id, dispatchId };
  }
}
