import type { Logger } from 'pino';
import type { Pool, PoolClient } from 'pg';
import { DeviceFamily, IncidentActionKind, type AlarmIncidentRow } from '@sc/contracts';
import { callBackToWaiting, loadIncidentRows, logIncidentAction } from '@sc/database';
import { Periodic } from '@sc/device-runtime';
import type { RedisBus } from '@sc/messaging';

/** Calls looked at per pass (calls are few: one per press). */
const PASS_BATCH = 100;

export interface CallTiming {
  /** How long one agent is rung. */
  ringMs: number;
  /** How often the router looks for calls to move along (a press or a rejection also runs it at once). */
  passMs: number;
}

/** A live call as the router reads it. */
interface LiveCall {
  id: string;
  incidentId: string | null;
  state: 'waiting' | 'ringing';
  groupId: number | null;
  agentUserId: number | null;
  agentName: string;
  tried: number[];
  timedOut: boolean;
}

/**
 * Moves the alarm columns' incoming calls along (docs/alarm-intercom.md): a waiting call is offered to the idle agent
 * of its user group who has been idle longest and has not had it yet (ringing, for `ringMs`); a call whose agent let it
 * ring out goes to the next; a call nobody is left to take, or that waited its whole time, ends NoReply. Agents
 * answer, reject and hang up through the gateway, which writes the call and leaves the rest to this pass.
 *
 * Every step is one transaction on the call's row (`FOR UPDATE SKIP LOCKED`), so replicas of the worker share the
 * calls without taking one twice, and a crash loses nothing: the state is in the rows, and the next pass picks it up.
 * An agent is locked while chosen and rung for one call at a time (alarm_call_agent_busy_uq).
 */
export class CallRouter {
  private readonly periodic: Periodic<void>;

  constructor(
    private readonly pool: Pool,
    private readonly bus: RedisBus,
    private readonly logger: Logger,
    private readonly timing: CallTiming,
  ) {
    this.periodic = new Periodic(() => this.pass(), logger, 'call routing pass failed');
  }

  start(): void {
    this.periodic.start(this.timing.passMs, { immediately: true });
  }

  stop(): Promise<void> {
    return this.periodic.stop();
  }

  /** A pass now (a press came in); failures are logged, and the next tick tries again. */
  kick(): void {
    this.periodic.run().catch((err: Error) => this.logger.warn({ err: err.message }, 'call routing pass failed'));
  }

  /** Publishes the incidents as they are now (IncidentChanged). */
  async announce(incidentIds: readonly string[]): Promise<void> {
    const rows = await loadIncidentRows<AlarmIncidentRow>(this.pool, incidentIds);
    const at = new Date().toISOString();
    for (const incident of rows) await this.bus.publish('IncidentChanged', { family: DeviceFamily.Alarm, incident, at });
  }

  private async pass(): Promise<void> {
    // Only the calls that can move: a ring that ran out, and a waiting call whose time is up, which nobody is left to
    // take, or for which an agent of its group is idle. A call waiting for agents who are all away costs nothing here
    // (each step checks again in its transaction).
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT c.id::text FROM alarm_call c
        WHERE (c.state = 'ringing' AND c.offer_expires_at <= now())
           OR (c.state = 'waiting' AND (
                c.wait_until <= now() OR c.group_id IS NULL
                OR EXISTS (SELECT 1 FROM alarm_agent a WHERE a.group_id = c.group_id AND a.mode = 'IDLE' AND a.account_status = 1
                              AND NOT (a.user_id = ANY(c.tried_user_ids)))
                OR NOT EXISTS (SELECT 1 FROM alarm_agent a WHERE a.group_id = c.group_id AND a.account_status = 1
                                  AND NOT (a.user_id = ANY(c.tried_user_ids)))))
        ORDER BY c.id LIMIT ${PASS_BATCH}`,
    );
    const moved: string[] = [];
    for (const { id } of rows) {
      const incident = await this.step(id);
      if (incident) moved.push(incident);
    }
    await this.announce(moved);
  }

  /** Moves one call along, in a transaction of its own; answers its incident when it moved. */
  private async step(callId: string): Promise<string | null> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<LiveCall>(
        `SELECT id::text, incident_id::text AS "incidentId", state, group_id AS "groupId", agent_user_id AS "agentUserId",
                agent_name AS "agentName", tried_user_ids AS tried, wait_until <= now() AS "timedOut"
           FROM alarm_call
          WHERE id = $1 AND (state = 'waiting' OR (state = 'ringing' AND offer_expires_at <= now()))
          FOR UPDATE SKIP LOCKED`,
        [callId],
      );
      const call = rows[0];
      const moved = call ? await this.move(client, call) : false;
      await client.query('COMMIT');
      return moved ? call.incidentId : null;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  private async move(client: PoolClient, call: LiveCall): Promise<boolean> {
    const log = (kind: IncidentActionKind, by: { userId?: number | null; userName?: string } = {}) =>
      call.incidentId ? logIncidentAction(client, call.incidentId, kind, by) : Promise.resolve();
    let tried = call.tried;
    let moved = false;
    if (call.state === 'ringing') {
      // Rung out: the agent had the call and did not take it.
      tried = [...tried, call.agentUserId!];
      await client.query(`UPDATE alarm_call SET ${callBackToWaiting('$2')} WHERE id = $1`, [call.id, call.agentUserId]);
      await log(IncidentActionKind.Missed, { userId: call.agentUserId, userName: call.agentName });
      moved = true;
    }
    const agents = await this.agentsLeft(client, call.groupId, tried);
    if (call.timedOut || agents.total === 0) {
      // Waited its whole time, or everyone who could take it has had it: it ends unanswered.
      await client.query(`UPDATE alarm_call SET state = 'ended', status = 'NoReply', ended_at = now(), duration_s = 0 WHERE id = $1`, [call.id]);
      await log(IncidentActionKind.NoReply);
      return true;
    }
    if (!agents.idle) return moved;
    await client.query(
      `UPDATE alarm_call SET state = 'ringing', agent_user_id = $2, agent_name = $3, agent_sip = $4,
              offer_expires_at = now() + make_interval(secs => $5::double precision / 1000) WHERE id = $1`,
      [call.id, agents.idle.userId, agents.idle.username, agents.idle.sipAccount, this.timing.ringMs],
    );
    await log(IncidentActionKind.Offered, { userId: agents.idle.userId, userName: agents.idle.username });
    return true;
  }

  /**
   * The agents of the group who have not had the call: how many could still take it (not suspended, their user
   * enabled), and the one to ring now: idle, not rung for or talking on another call, idle longest. The chosen agent's
   * row is locked until the transaction ends, so another pass cannot ring it too.
   */
  private async agentsLeft(
    client: PoolClient,
    groupId: number | null,
    tried: readonly number[],
  ): Promise<{ total: number; idle: { userId: number; username: string; sipAccount: string } | null }> {
    if (groupId === null) return { total: 0, idle: null };
    const { rows: counted } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM alarm_agent a JOIN sys_user u ON u.id = a.user_id AND u.enabled
        WHERE a.group_id = $1 AND a.account_status = 1 AND NOT (a.user_id = ANY($2::int[]))`,
      [groupId, tried],
    );
    const { rows } = await client.query<{ userId: number; username: string; sipAccount: string }>(
      `SELECT a.user_id AS "userId", u.username, a.sip_account AS "sipAccount"
         FROM alarm_agent a JOIN sys_user u ON u.id = a.user_id AND u.enabled
        WHERE a.group_id = $1 AND a.account_status = 1 AND a.mode = 'IDLE' AND NOT (a.user_id = ANY($2::int[]))
          AND NOT EXISTS (SELECT 1 FROM alarm_call o WHERE o.agent_user_id = a.user_id AND o.state IN ('ringing', 'connected'))
        ORDER BY a.mode_since, a.user_id
        LIMIT 1 FOR UPDATE OF a SKIP LOCKED`,
      [groupId, tried],
    );
    return { total: counted[0].n, idle: rows[0] ?? null };
  }
}
