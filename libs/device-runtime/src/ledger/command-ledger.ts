import { randomUUID } from 'node:crypto';
import {
  DispatchItemState,
  DispatchStatus,
  dispatchStatusOf,
  type DispatchCounts,
  type DispatchDetail,
  type DispatchDetailQuery,
  type DispatchItemRow,
  type DispatchRowChange,
  FAMILIES,
  familyDeclaration,
  type FamilyDeclaration,
  type FamilyName,
  RECEIPT_STAGES,
  type ReceiptStage,
} from '@sc/contracts';

/**
 * What the ledger needs of a database connection: pg's Pool and PoolClient fit as they are; the gateway adapts its
 * TypeORM EntityManager (sqlOfEntityManager). Every statement here runs in the caller's connection, so the caller
 * decides the transaction.
 */
export interface SqlExecutor {
  query<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
}

/** A ledger row taken for publishing, with what its command needs. */
export interface TakenItem {
  dispatch_id: string;
  device_id: number;
  command_id: string;
  code: string;
  family: FamilyName;
  action: string;
  params: unknown;
  expires_at: Date;
}

/** A row an ack, a refusal or the expiry just ended. */
export interface AnsweredItem {
  dispatch_id: string;
  device_id: number;
  state: DispatchItemState;
  family: FamilyName;
  action: string;
  params: unknown;
  /** For an ack: how long after its last send it was stored, milliseconds. */
  ack_ms?: number;
}

/** A receipt to record: how far a device has got with one command id (CommandDeclaration.receipts). */
export interface ReceiptToRecord {
  deviceId: number;
  commandId: string;
  stage: ReceiptStage;
  received: number | null;
  total: number | null;
}

/** A ledger row whose receipt was just recorded. */
export interface ReceiptedItem {
  dispatch_id: string;
  device_id: number;
  family: FamilyName;
  stage: ReceiptStage;
  received: string | null;
  total: string | null;
  updated_at: Date;
}

export interface AckToRecord {
  deviceId: number;
  commandId: string;
  ok: boolean;
  error?: string;
}

export interface NewDispatch {
  family: FamilyDeclaration;
  action: string;
  params: Record<string, unknown>;
  createdBy: string;
  deviceIds: readonly number[];
  /** Per-device command parameters, in the order of deviceIds, for commands that differ by device (a lamp's schedule). */
  itemParams?: readonly unknown[];
  /** How long the devices have to answer. */
  ttlSeconds: number;
}

/** Re-send timing: the first wait for an ack; each further attempt waits twice as long, up to maxBackoffMs. */
export interface AckTiming {
  ackTimeoutMs: number;
  maxBackoffMs: number;
}

/** Which queued rows to take: those of one dispatch (its job), or any left queued too long (a lost or failed job). */
export type QueuedScope = { dispatchId: string } | { queuedForMs: number };

/** What an item replaced by a newer schedule shows as its last error. */
export const SUPERSEDED = 'superseded';

const OPEN = [DispatchItemState.Queued, DispatchItemState.Sent];

/** The job id of one hand-over of a dispatch: adding it twice (a relay that crashed before deleting its row) is a no-op. */
export function dispatchJobId(job: string, dispatchId: string, round: number): string {
  return `${job}:${dispatchId}:${round}`;
}

function emptyCounts(): DispatchCounts {
  return { queued: 0, sent: 0, delivered: 0, failed: 0, expired: 0 };
}

/** A row's receipt as DispatchReceipt (null without one), from `dispatch_receipt r`. */
export const RECEIPT_JSON = `CASE WHEN r.stage IS NULL THEN NULL
  ELSE json_build_object('stage', r.stage, 'received', r.received, 'total', r.total, 'at', r.updated_at) END`;
/**
 * A dispatch row's device `code` or `name`, by a lookup per row: in the registry, or in the family's own table for a
 * family whose devices have records of their own (floor screens), whose ids are that table's. `family` and
 * `deviceId` are SQL expressions of the dispatch's family and the row's device id.
 */
export function dispatchDeviceColumn(column: 'code' | 'name', family: string, deviceId: string): string {
  const own = FAMILIES.filter((f) => f.deviceType === null && f.job !== null);
  if (own.length === 0) return familyDeviceColumn(column, deviceId);
  const cases = own.map((f) => `WHEN '${f.family}' THEN ${familyDeviceColumn(column, deviceId, f)}`);
  return `CASE ${family} ${cases.join(' ')} ELSE ${familyDeviceColumn(column, deviceId)} END`;
}

/** The same for rows of one family known beforehand (none: a registry family). */
function familyDeviceColumn(column: 'code' | 'name', deviceId: string, family?: FamilyDeclaration): string {
  return family?.deviceType === null
    ? `(SELECT own.${column} FROM ${family.table} own WHERE own.id = ${deviceId})`
    : `(SELECT dev.${column} FROM device dev WHERE dev.id = ${deviceId})`;
}

/** What a taken row's command needs; the device code by a lookup per row, not a join the planner may hash whole. */
const TAKEN_COLUMNS = `i.dispatch_id, i.device_id, i.command_id, ${dispatchDeviceColumn('code', 'd.family', 'i.device_id')} AS code,
  d.family, d.action, coalesce(i.params, d.params) AS params, d.expires_at`;

/**
 * The command ledger: a dispatch, one row per target device, the outbox row that hands the dispatch to its family's
 * worker, and each row's way from queued to delivered, failed or expired. The gateway writes dispatches and retries
 * through it and the device runtime moves the rows; nothing else writes these tables. Rows are taken
 * `FOR UPDATE SKIP LOCKED` and re-checked, so any number of gateway and worker replicas can share the ledger.
 *
 * Counts by state live in `dispatch_tally`, kept by triggers on the rows (migration 1732197000000-device-runtime).
 */
export const commandLedger = {
  /** Writes a dispatch, its queued rows and its hand-over to the family's queue; returns the dispatch id. */
  async create(sql: SqlExecutor, dispatch: NewDispatch): Promise<string> {
    const id = randomUUID();
    await sql.query(
      `INSERT INTO dispatch (id, family, action, params, created_by, expires_at) VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
      [id, dispatch.family.family, dispatch.action, JSON.stringify(dispatch.params), dispatch.createdBy, dispatch.ttlSeconds],
    );
    if (dispatch.itemParams) {
      await sql.query(
        `INSERT INTO dispatch_item (dispatch_id, device_id, command_id, params)
         SELECT $1, t.device_id, gen_random_uuid(), t.params FROM unnest($2::int[], $3::jsonb[]) AS t(device_id, params)`,
        [id, dispatch.deviceIds, dispatch.itemParams.map((p) => JSON.stringify(p))],
      );
    } else {
      await sql.query(
        `INSERT INTO dispatch_item (dispatch_id, device_id, command_id) SELECT $1, device_id, gen_random_uuid() FROM unnest($2::int[]) AS device_id`,
        [id, dispatch.deviceIds],
      );
    }
    await commandLedger.handOver(sql, dispatch.family, id, 1);
    return id;
  },

  /** Adds the outbox row that hands a dispatch to its family's queue (round 1 for a new dispatch, a new round per retry). */
  async handOver(sql: SqlExecutor, declaration: FamilyDeclaration, dispatchId: string, round: number): Promise<void> {
    if (!declaration.job || !declaration.queue) throw new Error(`The device family "${declaration.family}" takes no commands`);
    await sql.query(`INSERT INTO outbox (queue, job_name, job_id, payload) VALUES ($1, $2, $3, $4)`, [
      declaration.queue,
      declaration.job,
      dispatchJobId(declaration.job, dispatchId, round),
      JSON.stringify({ dispatchId }),
    ]);
  },

  /** A dispatch with its counts and its rows (all, or one page of those in a state), or null. */
  async detail(sql: SqlExecutor, query: DispatchDetailQuery): Promise<DispatchDetail | null> {
    const { id } = query;
    const { rows } = await sql.query<Omit<DispatchDetail, 'status' | 'counts' | 'total' | 'items' | 'itemsTotal'>>(
      `SELECT id, family, action, params, created_by AS "createdBy", created_at AS "createdAt", expires_at AS "expiresAt"
         FROM dispatch WHERE id = $1`,
      [id],
    );
    const dispatch = rows[0];
    if (!dispatch) return null;
    const paged = query.pageSize !== undefined;
    const [{ rows: items }, counts] = await Promise.all([
      sql.query<DispatchItemRow>(
        `SELECT i.device_id AS "deviceId", ${familyDeviceColumn('code', 'i.device_id', familyDeclaration(dispatch.family))} AS "deviceCode",
                ${familyDeviceColumn('name', 'i.device_id', familyDeclaration(dispatch.family))} AS "deviceName", i.state, i.attempts,
                i.last_error AS "lastError", i.updated_at AS "updatedAt", ${RECEIPT_JSON} AS receipt
           FROM dispatch_item i
           LEFT JOIN dispatch_receipt r ON r.dispatch_id = i.dispatch_id AND r.device_id = i.device_id
          WHERE i.dispatch_id = $1 AND ($2::text IS NULL OR i.state = $2)
          ORDER BY i.device_id ${paged ? 'LIMIT $3 OFFSET $4' : ''}`,
        [id, query.state ?? null, ...(paged ? [query.pageSize, ((query.pageNum ?? 1) - 1) * (query.pageSize ?? 0)] : [])],
      ),
      commandLedger.counts(sql, [id]),
    ]);
    const c = counts.get(id) ?? emptyCounts();
    const itemsTotal = query.state ? c[query.state] : total(c);
    return { ...dispatch, status: dispatchStatusOf(c), counts: c, total: total(c), items, itemsTotal };
  },

  /** Counts by state of each dispatch, from its tally. */
  async counts(sql: SqlExecutor, ids: readonly string[]): Promise<Map<string, DispatchCounts>> {
    const { rows } = await sql.query<DispatchCounts & { dispatch_id: string }>(
      `SELECT dispatch_id, sum(queued)::int AS queued, sum(sent)::int AS sent, sum(delivered)::int AS delivered,
              sum(failed)::int AS failed, sum(expired)::int AS expired
         FROM dispatch_tally WHERE dispatch_id = ANY($1::uuid[]) GROUP BY dispatch_id`,
      [ids],
    );
    return new Map(rows.map(({ dispatch_id, ...counts }) => [dispatch_id, counts]));
  },

  /** Locks a dispatch (a retry), answering its family and action; null when it does not exist. */
  async lock(sql: SqlExecutor, id: string): Promise<{ family: FamilyName; action: string } | null> {
    const { rows } = await sql.query<{ family: FamilyName; action: string }>(`SELECT family, action FROM dispatch WHERE id = $1 FOR UPDATE`, [id]);
    return rows[0] ?? null;
  },

  /**
   * Schedule distributions and schedule retries of a family take turns (an advisory lock until the transaction
   * ends), so each sees what the one before it committed.
   */
  async lockSchedules(sql: SqlExecutor, family: FamilyName): Promise<void> {
    await sql.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`sc:schedule:${family}`]);
  },

  /**
   * Before a new schedule goes to these devices: expires the still-open rows of the family's earlier schedule
   * dispatches to them (`supersedeActions`), in turn with the family's other schedule distributions and retries.
   */
  async supersedeSchedules(sql: SqlExecutor, family: FamilyName, deviceIds: readonly number[]): Promise<number> {
    await commandLedger.lockSchedules(sql, family);
    return commandLedger.supersedeActions(sql, family, ['schedule'], deviceIds);
  },

  /**
   * Before a new command goes to these devices: expires the still-open rows of the family's earlier dispatches of
   * these actions to them (a schedule replaced, a real-time play stopped), so the worker neither sends nor re-sends an
   * older command after the newer one. Rows are locked in a fixed order before the devices are touched, as the worker does.
   */
  async supersedeActions(sql: SqlExecutor, family: FamilyName, actions: readonly string[], deviceIds: readonly number[]): Promise<number> {
    const { rowCount } = await sql.query(
      `WITH open AS (
         SELECT i.dispatch_id, i.device_id FROM dispatch_item i JOIN dispatch d ON d.id = i.dispatch_id
          WHERE i.device_id = ANY($1::int[]) AND i.state = ANY($3::text[]) AND d.family = $2 AND d.action = ANY($6::text[])
          ORDER BY i.dispatch_id, i.device_id FOR UPDATE OF i)
       UPDATE dispatch_item i SET state = $4, last_error = $5, next_attempt_at = NULL, updated_at = now()
         FROM open WHERE i.dispatch_id = open.dispatch_id AND i.device_id = open.device_id AND i.state = ANY($3::text[])`,
      [deviceIds, family, OPEN, DispatchItemState.Expired, SUPERSEDED, actions],
    );
    return rowCount ?? 0;
  },

  /**
   * The dispatches of a family's actions with still-open (queued or sent) rows whose command names any of `ids` at
   * the JSON path `path` (a jsonpath filter comparing with `$id`, e.g. `$.file ? (@.mediaId == $id)`): what a file
   * or record still being sent is needed by. Answers their ids, oldest first.
   */
  async openNaming(sql: SqlExecutor, family: FamilyName, actions: readonly string[], path: string, ids: readonly number[]): Promise<string[]> {
    const { rows } = await sql.query<{ id: string }>(
      `SELECT d.id FROM dispatch d
        WHERE d.family = $1 AND d.action = ANY($2::text[])
          AND EXISTS (SELECT 1 FROM dispatch_item i, unnest($5::int[]) AS x(id)
                       WHERE i.dispatch_id = d.id AND i.state = ANY($3::text[])
                         AND jsonb_path_exists(coalesce(i.params, d.params), $4::jsonpath, jsonb_build_object('id', x.id)))
        ORDER BY d.created_at, d.id`,
      [family, actions, OPEN, path, ids],
    );
    return rows.map((r) => r.id);
  },

  /**
   * Expires the still-open rows of one dispatch whose command a newer one replaces (a broadcast task changed or
   * deleted), so the worker neither sends nor re-sends the older command after the newer one.
   */
  async supersede(sql: SqlExecutor, dispatchId: string): Promise<number> {
    const { rowCount } = await sql.query(
      `WITH open AS (
         SELECT dispatch_id, device_id FROM dispatch_item WHERE dispatch_id = $1 AND state = ANY($2::text[])
          ORDER BY device_id FOR UPDATE)
       UPDATE dispatch_item i SET state = $3, last_error = $4, next_attempt_at = NULL, updated_at = now()
         FROM open WHERE i.dispatch_id = open.dispatch_id AND i.device_id = open.device_id AND i.state = ANY($2::text[])`,
      [dispatchId, OPEN, DispatchItemState.Expired, SUPERSEDED],
    );
    return rowCount ?? 0;
  },

  /**
   * Queues the failed and expired rows of a dispatch again, with new command ids (a device must not take a retry for
   * the command it already answered), their attempts kept. `heldBy`: for schedules, only rows whose device's record
   * (that table's job_list) still holds the row's schedule; otherwise, rows a newer command superseded (`supersede`)
   * stay as they are.
   */
  async requeueFailed(sql: SqlExecutor, id: string, heldBy?: string): Promise<number> {
    const stillHeld = heldBy
      ? `AND EXISTS (SELECT 1 FROM ${heldBy} h WHERE h.device_id = dispatch_item.device_id AND h.job_list = dispatch_item.params)`
      : `AND last_error IS DISTINCT FROM '${SUPERSEDED}'`;
    const { rows } = await sql.query<{ device_id: number }>(
      `UPDATE dispatch_item SET state = $2, command_id = gen_random_uuid(), next_attempt_at = NULL, updated_at = now()
        WHERE dispatch_id = $1 AND state IN ($3, $4) ${stillHeld}
      RETURNING device_id`,
      [id, DispatchItemState.Queued, DispatchItemState.Failed, DispatchItemState.Expired],
    );
    // A retry is a new command: what the devices received of the old one no longer counts.
    if (rows.length > 0)
      await sql.query(`DELETE FROM dispatch_receipt WHERE dispatch_id = $1 AND device_id = ANY($2::int[])`, [id, rows.map((r) => r.device_id)]);
    return rows.length;
  },

  /**
   * Rewrites what a dispatch's failed and expired rows will carry when they are queued again (`requeueFailed`): the
   * dispatch's shared params and those rows' own, each through `renew` (fresh signed file links, say), in the
   * caller's transaction. Rows still open or answered keep what they were sent.
   */
  async renewParams(sql: SqlExecutor, id: string, renew: (params: unknown) => unknown): Promise<void> {
    const { rows: shared } = await sql.query<{ params: unknown }>(`SELECT params FROM dispatch WHERE id = $1`, [id]);
    if (shared[0]) await sql.query(`UPDATE dispatch SET params = $2 WHERE id = $1`, [id, JSON.stringify(renew(shared[0].params))]);
    const { rows: own } = await sql.query<{ device_id: number; params: unknown }>(
      `SELECT device_id, params FROM dispatch_item WHERE dispatch_id = $1 AND params IS NOT NULL AND state IN ($2, $3)`,
      [id, DispatchItemState.Failed, DispatchItemState.Expired],
    );
    if (own.length > 0)
      await sql.query(
        `UPDATE dispatch_item i SET params = t.params FROM unnest($2::int[], $3::jsonb[]) AS t(device_id, params)
          WHERE i.dispatch_id = $1 AND i.device_id = t.device_id`,
        [id, own.map((r) => r.device_id), own.map((r) => JSON.stringify(renew(r.params)))],
      );
  },

  /** Rows of a dispatch that failed or expired (and were not requeued). */
  async unanswered(sql: SqlExecutor, id: string): Promise<number> {
    const counts = (await commandLedger.counts(sql, [id])).get(id) ?? emptyCounts();
    return counts.failed + counts.expired;
  },

  /** Gives a retried dispatch another expiry period and reopens it. */
  async reopen(sql: SqlExecutor, id: string, ttlSeconds: number): Promise<void> {
    await sql.query(
      `UPDATE dispatch SET expires_at = greatest(expires_at, now()) + make_interval(secs => $2), finished_at = NULL, status = $3 WHERE id = $1`,
      [id, ttlSeconds, DispatchStatus.ToBeSent],
    );
  },

  // -------------------------------------------------------------------------------------------------------------
  // The worker's side.

  /**
   * Takes up to `limit` queued rows in scope and marks them sent (with their first ack deadline) in the caller's
   * transaction, BEFORE their commands go out: an ack can then never find its row still queued, and a crash after
   * the commit only delays the command until the tracker re-sends it under the same id.
   *
   * `families`: only rows of dispatches of these families (the worker's): workers of other families share the
   * ledger, and a row taken by a worker without the family's handler would be marked sent but never published.
   */
  async takeQueued(sql: SqlExecutor, scope: QueuedScope, limit: number, timing: AckTiming, families?: readonly string[]): Promise<TakenItem[]> {
    const filter = 'dispatchId' in scope ? 'i.dispatch_id = $4' : `i.updated_at < now() - $4 * interval '1 millisecond'`;
    const { rows } = await sql.query<TakenItem>(
      `WITH picked AS (
         SELECT i.dispatch_id, i.device_id FROM dispatch_item i JOIN dispatch d ON d.id = i.dispatch_id
          WHERE ${filter} AND i.state = 'queued' AND d.expires_at > now() AND ($5::text[] IS NULL OR d.family = ANY($5::text[]))
          ORDER BY i.dispatch_id, i.device_id LIMIT $3 FOR UPDATE OF i SKIP LOCKED)
       UPDATE dispatch_item i
          SET state = 'sent', attempts = i.attempts + 1, sent_at = now(), updated_at = now(), last_error = NULL,
              next_attempt_at = now() + least($1 * power(2, i.attempts), $2) * interval '1 millisecond'
         FROM picked, dispatch d
        WHERE i.dispatch_id = picked.dispatch_id AND i.device_id = picked.device_id AND d.id = i.dispatch_id
      RETURNING ${TAKEN_COLUMNS}`,
      [timing.ackTimeoutMs, timing.maxBackoffMs, limit, 'dispatchId' in scope ? scope.dispatchId : scope.queuedForMs, families ?? null],
    );
    return rows;
  },

  /**
   * Takes sent rows still unanswered at their next attempt time, for a re-send under the same command id; only rows
   * of dispatches of `families` (the worker's), as in takeQueued. `graceMs`: how far behind the devices the intake is
   * (an ack that arrived but is not stored yet must not make its command look lost).
   */
  async takeDueForResend(sql: SqlExecutor, limit: number, timing: AckTiming, families?: readonly string[], graceMs = 0): Promise<TakenItem[]> {
    const { rows } = await sql.query<TakenItem>(
      `WITH due AS (
         SELECT i.dispatch_id, i.device_id FROM dispatch_item i JOIN dispatch d ON d.id = i.dispatch_id
          WHERE i.state = 'sent' AND i.next_attempt_at <= now() - $5 * interval '1 millisecond'
            AND ($4::text[] IS NULL OR d.family = ANY($4::text[]))
          ORDER BY i.next_attempt_at LIMIT $3 FOR UPDATE OF i SKIP LOCKED)
       UPDATE dispatch_item i
          SET attempts = i.attempts + 1, sent_at = now(), updated_at = now(),
              next_attempt_at = now() + least($1 * power(2, i.attempts), $2) * interval '1 millisecond'
         FROM due, dispatch d
        WHERE i.dispatch_id = due.dispatch_id AND i.device_id = due.device_id AND d.id = i.dispatch_id
          AND d.expires_at > now()
      RETURNING ${TAKEN_COLUMNS}`,
      [timing.ackTimeoutMs, timing.maxBackoffMs, limit, families ?? null, graceMs],
    );
    return rows;
  },

  /**
   * Records acks: an ack answers only an open row of the device it came from (a device cannot answer another's
   * command, and a repeated ack finds its row already answered). Answers the rows it ended.
   */
  async recordAcks(sql: SqlExecutor, acks: readonly AckToRecord[]): Promise<AnsweredItem[]> {
    if (acks.length === 0) return [];
    const { rows } = await sql.query<AnsweredItem>(
      `UPDATE dispatch_item i
          SET state = CASE WHEN a.ok THEN 'delivered' ELSE 'failed' END,
              last_error = CASE WHEN a.ok THEN NULL ELSE left(coalesce(nullif(a.error, ''), 'failed'), 255) END,
              next_attempt_at = NULL, updated_at = now()
         FROM unnest($1::uuid[], $2::int[], $3::boolean[], $4::text[]) AS a(command_id, device_id, ok, error), dispatch d
        WHERE i.command_id = a.command_id AND i.device_id = a.device_id AND i.state IN ('queued', 'sent') AND d.id = i.dispatch_id
          AND i.command_id = ANY($1::uuid[])
      RETURNING i.dispatch_id, i.device_id, i.state, d.family, d.action, coalesce(i.params, d.params) AS params,
                (extract(epoch FROM now() - i.sent_at) * 1000)::int AS ack_ms`,
      [acks.map((a) => a.commandId), acks.map((a) => a.deviceId), acks.map((a) => a.ok), acks.map((a) => a.error ?? null)],
    );
    return rows;
  },

  /**
   * Records receipts: a receipt counts only for the open row of the device it came from, under the row's current
   * command id; a later stage is never undone by an earlier one that arrived late. A receipt also tells that the
   * device holds the command, so the row is not re-sent for `holdMs` after it (moved at most once per half of that,
   * so frequent receipts do not rewrite the ledger row). Answers the rows whose receipt it recorded.
   */
  async recordReceipts(sql: SqlExecutor, receipts: readonly ReceiptToRecord[], holdMs: number): Promise<ReceiptedItem[]> {
    if (receipts.length === 0) return [];
    // One receipt per command in a statement (ON CONFLICT cannot touch a row twice): the last that came, unless it
    // says less than one before it (a late `received` after `downloading`).
    const last = new Map<string, ReceiptToRecord>();
    for (const r of receipts) {
      const key = `${r.commandId}/${r.deviceId}`;
      const held = last.get(key);
      if (!held || RECEIPT_STAGES.indexOf(r.stage) >= RECEIPT_STAGES.indexOf(held.stage)) last.set(key, r);
    }
    const list = [...last.values()];
    const { rows } = await sql.query<ReceiptedItem>(
      `WITH r AS (SELECT * FROM unnest($1::uuid[], $2::int[], $3::text[], $4::bigint[], $5::bigint[]) AS r(command_id, device_id, stage, received, total)),
            live AS (
              SELECT i.dispatch_id, i.device_id, r.stage, r.received, r.total FROM dispatch_item i
                JOIN r ON i.command_id = r.command_id AND i.device_id = r.device_id
               WHERE i.state = 'sent' AND i.command_id = ANY($1::uuid[])
               ORDER BY i.dispatch_id, i.device_id),
            up AS (
              INSERT INTO dispatch_receipt AS t (dispatch_id, device_id, stage, received, total, updated_at)
              SELECT dispatch_id, device_id, stage, received, total, now() FROM live
              ON CONFLICT (dispatch_id, device_id) DO UPDATE
                 SET stage = excluded.stage, received = excluded.received, total = excluded.total, updated_at = now()
               WHERE NOT (t.stage = 'downloading' AND excluded.stage = 'received')
              RETURNING t.dispatch_id, t.device_id, t.stage, t.received, t.total, t.updated_at),
            held AS (
              UPDATE dispatch_item i SET next_attempt_at = now() + $6 * interval '1 millisecond'
                FROM up WHERE i.dispatch_id = up.dispatch_id AND i.device_id = up.device_id AND i.state = 'sent'
                 AND i.next_attempt_at < now() + $6 / 2 * interval '1 millisecond')
       SELECT up.*, d.family FROM up JOIN dispatch d ON d.id = up.dispatch_id`,
      [
        list.map((r) => r.commandId),
        list.map((r) => r.deviceId),
        list.map((r) => r.stage),
        list.map((r) => r.received),
        list.map((r) => r.total),
        holdMs,
      ],
    );
    return rows;
  },

  /** The current state of the moved rows of several dispatches, with their receipts, by dispatch (DispatchRowsChanged). */
  async rowChanges(sql: SqlExecutor, moved: ReadonlyMap<string, ReadonlySet<number>>): Promise<Map<string, DispatchRowChange[]>> {
    const pairs = [...moved].flatMap(([dispatchId, devices]) => [...devices].map((deviceId) => [dispatchId, deviceId] as const));
    const byDispatch = new Map<string, DispatchRowChange[]>();
    if (pairs.length === 0) return byDispatch;
    const { rows } = await sql.query<DispatchRowChange & { dispatchId: string }>(
      `SELECT i.dispatch_id AS "dispatchId", i.device_id AS "deviceId", i.state, i.last_error AS "lastError", i.updated_at AS "updatedAt",
              ${RECEIPT_JSON} AS receipt
         FROM unnest($1::uuid[], $2::int[]) AS m(dispatch_id, device_id)
         JOIN dispatch_item i ON i.dispatch_id = m.dispatch_id AND i.device_id = m.device_id
         LEFT JOIN dispatch_receipt r ON r.dispatch_id = i.dispatch_id AND r.device_id = i.device_id`,
      [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
    );
    for (const { dispatchId, ...row } of rows) {
      const list = byDispatch.get(dispatchId);
      if (list) list.push(row);
      else byDispatch.set(dispatchId, [row]);
    }
    return byDispatch;
  },

  /**
   * Rows still open at their dispatch's expiry become expired; found through the open dispatches, not every open row.
   * Only dispatches of `families` (the worker's): the worker that expires a row tells its device, through the
   * family's handler. A row whose device is still saying how its download goes (a receipt within `receiptHoldMs`)
   * is not expired in the middle of it: it stays open while the receipts keep coming, for at most `graceMs` past its
   * dispatch's expiry, so a long download is not counted lost (and then sent again by a retry) while it completes.
   */
  async expireDue(
    sql: SqlExecutor,
    limit: number,
    families?: readonly string[],
    downloads: { receiptHoldMs: number; graceMs: number } = { receiptHoldMs: 0, graceMs: 0 },
  ): Promise<AnsweredItem[]> {
    const { rows } = await sql.query<AnsweredItem>(
      `WITH overdue AS (
              SELECT id, expires_at FROM dispatch
               WHERE finished_at IS NULL AND expires_at <= now() AND ($2::text[] IS NULL OR family = ANY($2::text[]))),
            due AS (
              SELECT i.dispatch_id, i.device_id FROM dispatch_item i
                JOIN overdue o ON o.id = i.dispatch_id
                LEFT JOIN dispatch_receipt r ON r.dispatch_id = i.dispatch_id AND r.device_id = i.device_id
               WHERE i.state IN ('queued', 'sent')
                 AND (r.updated_at IS NULL OR r.updated_at <= now() - $3 * interval '1 millisecond'
                      OR o.expires_at <= now() - $4 * interval '1 millisecond')
               LIMIT $1 FOR UPDATE OF i SKIP LOCKED)
       UPDATE dispatch_item i SET state = 'expired', last_error = 'expired', next_attempt_at = NULL, updated_at = now()
         FROM due, dispatch d WHERE i.dispatch_id = due.dispatch_id AND i.device_id = due.device_id AND d.id = i.dispatch_id
       RETURNING i.dispatch_id, i.device_id, i.state, d.family, d.action, coalesce(i.params, d.params) AS params`,
      [limit, families ?? null, downloads.receiptHoldMs, downloads.graceMs],
    );
    return rows;
  },

  /** Each dispatch's family and whether it was finished already. */
  async dispatches(sql: SqlExecutor, ids: readonly string[]): Promise<{ id: string; family: FamilyName; finished: boolean }[]> {
    const { rows } = await sql.query<{ id: string; family: FamilyName; finished: boolean }>(
      `SELECT id, family, finished_at IS NOT NULL AS finished FROM dispatch WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    return rows;
  },

  /** Records a dispatch's end and its batch status, exactly once across replicas. */
  async finish(sql: SqlExecutor, id: string, status: DispatchStatus): Promise<void> {
    await sql.query(`UPDATE dispatch SET finished_at = now(), status = $2 WHERE id = $1 AND finished_at IS NULL`, [id, status]);
  },

  /** Dispatches whose rows are all terminal but which were never finished (their last change was seen by a replica that died). */
  async finishable(sql: SqlExecutor, limit: number): Promise<string[]> {
    const { rows } = await sql.query<{ id: string }>(
      `SELECT d.id FROM dispatch d
        WHERE d.finished_at IS NULL
          AND (SELECT sum(t.queued + t.sent) FROM dispatch_tally t WHERE t.dispatch_id = d.id) = 0
        LIMIT $1`,
      [limit],
    );
    return rows.map((r) => r.id);
  },
};

export function total(counts: DispatchCounts): number {
  return counts.queued + counts.sent + counts.delivered + counts.failed + counts.expired;
}
