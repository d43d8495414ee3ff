import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import {
  AgentMode,
  CallSort,
  DeviceFamily,
  IncidentActionKind,
  IncidentState,
  type AgentMe,
  type AlarmCallRow,
  type AlarmIncidentDetail,
  type AlarmIncidentRow,
  type IncidentActionRow,
  type PageResult,
} from '@sc/contracts';
import {
  ALARM_CALL_COLUMNS,
  ALARM_INCIDENT_COLUMNS,
  ALARM_INCIDENT_FROM,
  CALL_HUNG_UP,
  callBackToWaiting,
  loadIncidentRows,
  logIncidentAction,
} from '@sc/database';
import { AppException } from '../common/app-exception';
import type { Caller } from '../common/request-context';
import { Where, likeContains, pagedQuery } from '../common/sql';
import { InjectDb } from '../infra/database';
import { EventBus } from '../infra/event-bus.service';
import type { AlarmCallFiltersDto, AlarmCallPageDto, AlarmIncidentPageDto } from './dto/intercom.dto';

/** The order of each of the call log's four sorts (spec alarm options: start time or duration, descending or ascending). */
const CALL_ORDER: Record<CallSort, { inner: string; outer: string }> = {
  [CallSort.StartTimeDesc]: { inner: 'c.started_at DESC, c.id DESC', outer: 'page."startedAt" DESC, page.id::bigint DESC' },
  [CallSort.StartTimeAsc]: { inner: 'c.started_at, c.id', outer: 'page."startedAt", page.id::bigint' },
  [CallSort.DurationDesc]: {
    inner: 'c.duration_s DESC, c.started_at DESC, c.id DESC',
    outer: 'page.duration DESC, page."startedAt" DESC, page.id::bigint DESC',
  },
  [CallSort.DurationAsc]: { inner: 'c.duration_s, c.started_at, c.id', outer: 'page.duration, page."startedAt", page.id::bigint' },
};

/** The call log's filters over `alarm_call c`, shared by the page and the export. */
export function callWhere(f: AlarmCallFiltersDto): Where {
  return new Where()
    .addIf(
      f.keyword,
      `lower(c.device_name || chr(1) || c.device_code || chr(1) || c.column_sip || chr(1) || c.agent_name || chr(1) || c.agent_sip) LIKE ?`,
      f.keyword && likeContains(f.keyword),
    )
    .addIf(f.callType, `c.call_type = ?`)
    .addIf(f.status, `c.status = ?`)
    .addIf(f.direction, `c.direction = ?`)
    .addIf(f.startFrom, `c.started_at >= ?`)
    .addIf(f.startTo, `c.started_at < ?`)
    .addIf(f.recorded, `(c.recording_file IS NOT NULL) = ?`);
}

export function callOrder(sort: CallSort | undefined): { inner: string; outer: string } {
  return CALL_ORDER[sort ?? CallSort.StartTimeDesc];
}

/**
 * The alarm columns' incidents and calls for operators: the incident list, an incident with its log, answering,
 * rejecting and hanging up a call (the agent being rung, or on it), acknowledging, notes, the level and closing; the
 * caller's own agent mode; the call log. The alarm worker opens incidents and moves their calls from agent to agent
 * (its CallRouter); what operators do here is written in one transaction and published at once (IncidentChanged,
 * AgentModeChanged), so every console on every replica follows.
 */
@Injectable()
export class AlarmIncidentsService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    private readonly bus: EventBus,
  ) {}

  page(q: AlarmIncidentPageDto): Promise<PageResult<AlarmIncidentRow>> {
    const where = new Where()
      .addIf(q.state, `i.state = ?`)
      .addIf(q.level, `i.level = ?`)
      .addIf(q.name, `lower(i.device_name || chr(1) || i.device_code) LIKE ?`, q.name && likeContains(q.name));
    return pagedQuery<AlarmIncidentRow>(this.db, {
      select: ALARM_INCIDENT_COLUMNS,
      from: ALARM_INCIDENT_FROM,
      countFrom: 'alarm_incident i',
      where,
      orderBy: 'i.pressed_at DESC, i.id DESC',
      outerOrderBy: 'page."pressedAt" DESC, page.id::bigint DESC',
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    });
  }

  async detail(id: string): Promise<AlarmIncidentDetail> {
    const [incident] = await loadIncidentRows<AlarmIncidentRow>(this.db, [id]);
    if (!incident) throw AppException.notFound();
    const actions: IncidentActionRow[] = await this.db.query(
      `SELECT a.id::text, a.kind, a.at, a.user_name AS "userName", a.note, a.level, a.dispatch_id AS "dispatchId",
              a.device_count AS "deviceCount" FROM alarm_incident_action a
        WHERE a.incident_id = $1 ORDER BY a.id`,
      [id],
    );
    return { ...incident, actions };
  }

  /** The caller as an agent: null when in no user group. */
  async me(caller: Caller): Promise<AgentMe | null> {
    const [me]: Omit<AgentMe, 'liveIncident'>[] = await this.db.query(
      `SELECT a.user_id AS "userId", u.username, a.sip_account AS "sipAccount", a.protocol, a.account_status AS "accountStatus",
              a.mode, a.mode_since AS "modeSince", a.group_id AS "groupId", g.name AS "groupName"
         FROM alarm_agent a JOIN sys_user u ON u.id = a.user_id JOIN alarm_user_group g ON g.id = a.group_id WHERE a.user_id = $1`,
      [caller.userId],
    );
    if (!me) return null;
    const live: { id: string }[] = await this.db.query(
      `SELECT incident_id::text AS id FROM alarm_call WHERE agent_user_id = $1 AND state IN ('ringing', 'connected') AND incident_id IS NOT NULL`,
      [caller.userId],
    );
    const [liveIncident] = await loadIncidentRows<AlarmIncidentRow>(
      this.db,
      live.map((row) => row.id),
    );
    return { ...me, liveIncident: liveIncident ?? null };
  }

  /** The caller's own mode: IDLE takes calls; BUSY and OFFLINE do not. */
  async setMode(caller: Caller, mode: AgentMode): Promise<AgentMe> {
    const changed = await this.writeMode(this.db.manager, caller.userId, mode);
    if (!changed) throw AppException.forbidden('alarmNotAgent');
    this.publishMode(changed);
    return (await this.me(caller))!;
  }

  /**
   * An agent closed its last console: it goes offline, a call ringing it goes back to waiting (for the next agent, as
   * if it had rung out), and a call it was on ends there (its duration so far), so no call stays connected to nobody.
   */
  async agentLeft(userId: number): Promise<void> {
    const { mode, moved } = await this.db.transaction(async (tx) => {
      const [user]: { username: string }[] = await tx.query(`SELECT username FROM sys_user WHERE id = $1`, [userId]);
      const userName = user?.username ?? '';
      const [ringing] = (await tx.query(
        `UPDATE alarm_call SET ${callBackToWaiting('$1')}
          WHERE agent_user_id = $1 AND state = 'ringing' RETURNING incident_id::text AS id`,
        [userId],
      )) as [{ id: string | null }[], number];
      const [connected] = (await tx.query(
        `UPDATE alarm_call SET ${CALL_HUNG_UP}
          WHERE agent_user_id = $1 AND state = 'connected' RETURNING incident_id::text AS id`,
        [userId],
      )) as [{ id: string | null }[], number];
      for (const { id } of ringing) if (id) await logIncidentAction(tx, id, IncidentActionKind.Missed, { userId, userName });
      for (const { id } of connected) if (id) await logIncidentAction(tx, id, IncidentActionKind.HungUp, { userId, userName });
      const change = await this.writeMode(tx, userId, AgentMode.Offline, [AgentMode.Idle, AgentMode.Busy]);
      return { mode: change, moved: [...ringing, ...connected].flatMap((row) => (row.id ? [row.id] : [])) };
    });
    for (const id of moved) await this.published(id, null);
    if (mode) this.publishMode(mode);
  }

  /** Sets a user's mode when it is an agent and the mode changes; answers the change. */
  async writeMode(
    tx: EntityManager,
    userId: number,
    mode: AgentMode,
    onlyFrom?: readonly AgentMode[],
  ): Promise<{ userId: number; groupId: number; mode: AgentMode; modeSince: string } | null> {
    const [rows] = (await tx.query(
      `UPDATE alarm_agent SET mode = $2::text, mode_since = CASE WHEN mode = $2::text THEN mode_since ELSE now() END
        WHERE user_id = $1 AND ($3::text[] IS NULL OR mode = ANY($3::text[]))
        RETURNING user_id AS "userId", group_id AS "groupId", mode, mode_since AS "modeSince"`,
      [userId, mode, onlyFrom ?? null],
    )) as [{ userId: number; groupId: number; mode: AgentMode; modeSince: Date }[], number];
    const row = rows[0];
    return row ? { ...row, modeSince: new Date(row.modeSince).toISOString() } : null;
  }

  publishMode(change: { userId: number; groupId: number; mode: AgentMode; modeSince: string }): void {
    this.bus.publish('AgentModeChanged', { family: DeviceFamily.Alarm, ...change });
  }

  /** The agent being rung takes the call: connected, and the agent busy until it hangs up. */
  async answer(caller: Caller, id: string): Promise<AlarmIncidentRow> {
    const mode = await this.change(id, async (tx) => {
      const [rows] = (await tx.query(
        `UPDATE alarm_call SET state = 'connected', status = 'Connected', answered_at = now(), offer_expires_at = NULL
          WHERE incident_id = $1 AND state = 'ringing' AND agent_user_id = $2 RETURNING id`,
        [id, caller.userId],
      )) as [unknown[], number];
      if (rows.length === 0) throw AppException.conflict('alarmCallNotOffered');
      await logIncidentAction(tx, id, IncidentActionKind.Answered, { userId: caller.userId, userName: caller.username });
      return this.writeMode(tx, caller.userId, AgentMode.Busy);
    });
    return this.published(id, mode);
  }

  /** The agent being rung turns the call down: it goes back to waiting, for the next agent (the worker offers it). */
  async reject(caller: Caller, id: string): Promise<AlarmIncidentRow> {
    await this.change(id, async (tx) => {
      const [rows] = (await tx.query(
        `UPDATE alarm_call SET ${callBackToWaiting('$2')}
          WHERE incident_id = $1 AND state = 'ringing' AND agent_user_id = $2 RETURNING id`,
        [id, caller.userId],
      )) as [unknown[], number];
      if (rows.length === 0) throw AppException.conflict('alarmCallNotOffered');
      await logIncidentAction(tx, id, IncidentActionKind.Rejected, { userId: caller.userId, userName: caller.username });
      return null;
    });
    return this.published(id, null);
  }

  /** The agent on the call ends it: its duration is written, and the agent is idle again. */
  async hangUp(caller: Caller, id: string): Promise<AlarmIncidentRow> {
    const mode = await this.change(id, async (tx) => {
      const [rows] = (await tx.query(
        `UPDATE alarm_call SET ${CALL_HUNG_UP}
          WHERE incident_id = $1 AND state = 'connected' AND agent_user_id = $2 RETURNING id`,
        [id, caller.userId],
      )) as [unknown[], number];
      if (rows.length === 0) throw AppException.conflict('alarmCallNotConnected');
      await logIncidentAction(tx, id, IncidentActionKind.HungUp, { userId: caller.userId, userName: caller.username });
      return this.writeMode(tx, caller.userId, AgentMode.Idle, [AgentMode.Busy]);
    });
    return this.published(id, mode);
  }

  /** Someone has it in hand: acknowledged (once), with an optional note. */
  async acknowledge(caller: Caller, id: string, note?: string): Promise<AlarmIncidentRow> {
    await this.change(id, async (tx) => {
      await this.open(tx, id);
      await tx.query(
        `UPDATE alarm_incident SET state = 'acknowledged', acknowledged_at = COALESCE(acknowledged_at, now()),
                acknowledged_by = COALESCE(acknowledged_by, $2) WHERE id = $1`,
        [id, caller.username],
      );
      await logIncidentAction(tx, id, IncidentActionKind.Acknowledged, { userId: caller.userId, userName: caller.username, note });
      return null;
    });
    return this.published(id, null);
  }

  async note(caller: Caller, id: string, note: string): Promise<AlarmIncidentRow> {
    await this.change(id, async (tx) => {
      await this.open(tx, id);
      await logIncidentAction(tx, id, IncidentActionKind.Note, { userId: caller.userId, userName: caller.username, note });
      return null;
    });
    return this.published(id, null);
  }

  async level(caller: Caller, id: string, level: number): Promise<AlarmIncidentRow> {
    await this.change(id, async (tx) => {
      await this.open(tx, id);
      await tx.query(`UPDATE alarm_incident SET level = $2 WHERE id = $1`, [id, level]);
      await logIncidentAction(tx, id, IncidentActionKind.Level, { userId: caller.userId, userName: caller.username, level });
      return null;
    });
    return this.published(id, null);
  }

  /** Closes an incident (its call, if still ringing or waiting, goes on to its end: the record is kept whatever happens). */
  async close(caller: Caller, id: string, note?: string): Promise<AlarmIncidentRow> {
    await this.change(id, async (tx) => {
      await this.open(tx, id);
      await tx.query(
        `UPDATE alarm_incident SET state = 'closed', closed_at = now(), closed_by = $2,
                acknowledged_at = COALESCE(acknowledged_at, now()), acknowledged_by = COALESCE(acknowledged_by, $2) WHERE id = $1`,
        [id, caller.username],
      );
      await logIncidentAction(tx, id, IncidentActionKind.Closed, { userId: caller.userId, userName: caller.username, note });
      return null;
    });
    return this.published(id, null);
  }

  /** The incident must exist (404) and not be closed (409 'This incident is already closed'); it is locked till commit. */
  private async open(tx: EntityManager, id: string): Promise<void> {
    const [row]: { state: IncidentState }[] = await tx.query(`SELECT state FROM alarm_incident WHERE id = $1 FOR UPDATE`, [id]);
    if (!row) throw AppException.notFound();
    if (row.state === IncidentState.Closed) throw AppException.conflict('incidentClosed');
  }

  /** Runs a change of one incident in a transaction; an unknown incident is 404 before anything is written. */
  private async change<T>(id: string, work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query(`SELECT 1 FROM alarm_incident WHERE id = $1`, [id]);
      if (!row) throw AppException.notFound();
      return work(tx);
    });
  }

  /** Publishes the incident as it is now, once a change to it is committed, and answers it. */
  publish(id: string): Promise<AlarmIncidentRow> {
    return this.published(id, null);
  }

  /** Publishes the incident as it is now (and an agent's new mode), and answers it. */
  private async published(
    id: string,
    mode: { userId: number; groupId: number; mode: AgentMode; modeSince: string } | null,
  ): Promise<AlarmIncidentRow> {
    const [incident] = await loadIncidentRows<AlarmIncidentRow>(this.db, [id]);
    this.bus.publish('IncidentChanged', { family: DeviceFamily.Alarm, incident, at: new Date().toISOString() });
    if (mode) this.publishMode(mode);
    return incident;
  }

  calls(q: AlarmCallPageDto): Promise<PageResult<AlarmCallRow>> {
    const order = callOrder(q.sort);
    return pagedQuery<AlarmCallRow>(this.db, {
      select: ALARM_CALL_COLUMNS,
      from: 'alarm_call c',
      where: callWhere(q),
      orderBy: order.inner,
      outerOrderBy: order.outer,
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    });
  }
}
