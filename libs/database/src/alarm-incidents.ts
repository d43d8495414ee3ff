/**
 * The alarm intercom's rows (AlarmIncidentRow, AlarmCallRow in libs/contracts alarm-intercom.ts) as SQL: the alarm
 * worker publishes the incidents it opened or moved along and the gateway pages them and publishes what operators
 * did, in the same shape.
 */

/** An AlarmCallRow's fields and their SQL over `alarm_call c`: the call log's columns and the incident's `call` object. */
const CALL_FIELDS: readonly (readonly [field: string, sql: string])[] = [
  ['id', 'c.id::text'],
  ['incidentId', 'c.incident_id::text'],
  ['columnId', 'c.device_id'],
  ['columnName', 'c.device_name'],
  ['columnCode', 'c.device_code'],
  ['columnSip', 'c.column_sip'],
  ['callType', 'c.call_type'],
  ['direction', 'c.direction'],
  ['status', 'c.status'],
  ['state', 'c.state'],
  ['agentUserId', 'c.agent_user_id'],
  ['agentName', 'c.agent_name'],
  ['agentSip', 'c.agent_sip'],
  ['offerExpiresAt', 'c.offer_expires_at'],
  ['startedAt', 'c.started_at'],
  ['answeredAt', 'c.answered_at'],
  ['endedAt', 'c.ended_at'],
  ['duration', 'c.duration_s'],
  // Its recording once stored; `url` is signed by the gateway for the call log (empty in the rows the workers push).
  [
    'recording',
    `CASE WHEN c.recording_file IS NULL THEN NULL ELSE json_build_object('seconds', c.recording_seconds, 'fileSize', c.recording_size, 'url', '') END`,
  ],
];

/** The columns of an AlarmCallRow over `alarm_call c`. */
export const ALARM_CALL_COLUMNS = CALL_FIELDS.map(([field, sql]) => `${sql} AS "${field}"`).join(', ');

/** The same call as one JSON object (timestamps as ISO 8601 text, as the pages get them). */
const CALL_JSON = `json_build_object(${CALL_FIELDS.map(([field, sql]) => `'${field}', ${sql}`).join(', ')})`;

/**
 * A call going back to waiting for the next agent (`SET` of an UPDATE of `alarm_call`), the agent `agentParam` having
 * had it: it rejected it, let it ring out, or closed its console. The call router offers it on.
 */
export const callBackToWaiting = (agentParam: string) =>
  `state = 'waiting', agent_user_id = NULL, agent_name = '', agent_sip = '', offer_expires_at = NULL,
   tried_user_ids = tried_user_ids || ${agentParam}::int`;

/** A connected call ending now, with the time talked (`SET` of an UPDATE of `alarm_call`). */
export const CALL_HUNG_UP = `state = 'ended', ended_at = now(), duration_s = GREATEST(0, round(extract(epoch FROM now() - answered_at)))::int`;

/**
 * The columns of an AlarmIncidentRow over ALARM_INCIDENT_FROM: the column as it was pressed, its place as it is now
 * (region, pole, its own position or its pole's), the group the call went to and the call.
 */
export const ALARM_INCIDENT_COLUMNS = `i.id::text AS id, i.press_id::text AS "pressId", i.device_id AS "columnId",
  i.device_name AS "columnName", i.device_code AS "columnCode", i.level, i.state, i.region_id AS "regionId",
  r.region_name AS "regionName", p.code AS "poleCode", COALESCE(d.latitude, p.latitude) AS latitude,
  COALESCE(d.longitude, p.longitude) AS longitude, i.group_id AS "groupId", g.name AS "groupName",
  i.pressed_at AS "pressedAt", i.acknowledged_at AS "acknowledgedAt", i.acknowledged_by AS "acknowledgedBy",
  i.closed_at AS "closedAt", i.closed_by AS "closedBy", CASE WHEN c.id IS NULL THEN NULL ELSE ${CALL_JSON} END AS call`;

export const ALARM_INCIDENT_FROM = `alarm_incident i LEFT JOIN device d ON d.id = i.device_id
  LEFT JOIN device p ON p.id = d.pole_id LEFT JOIN region r ON r.id = i.region_id
  LEFT JOIN alarm_user_group g ON g.id = i.group_id LEFT JOIN alarm_call c ON c.incident_id = i.id`;

/**
 * The user group whose agents take a column's calls: the group of the column's region or of its nearest region above
 * it; failing that, a group with no region (the first made). `columnId` is SQL naming the column's device id (a
 * parameter, or a column of the outer query).
 */
export function groupOfColumn(columnId: string): string {
  return `(
  WITH RECURSIVE up(id, depth) AS (
    SELECT region_id, 0 FROM device WHERE id = ${columnId} AND region_id IS NOT NULL
    UNION ALL
    SELECT r.parent_id, up.depth + 1 FROM region r JOIN up ON r.id = up.id WHERE r.parent_id IS NOT NULL
  )
  SELECT g.id FROM alarm_user_group g LEFT JOIN up ON up.id = g.region_id
   WHERE g.region_id IS NULL OR up.id IS NOT NULL
   ORDER BY up.depth NULLS LAST, g.id LIMIT 1)`;
}

/** Queries on a client or a pool (pg) and on a TypeORM DataSource alike. */
interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? (result as T[]) : (result as { rows: T[] }).rows);

/** The incidents with these ids, as their rows now. */
export async function loadIncidentRows<T>(db: Queryable, ids: readonly string[]): Promise<T[]> {
  if (ids.length === 0) return [];
  return rowsOf<T>(
    await db.query(`SELECT ${ALARM_INCIDENT_COLUMNS} FROM ${ALARM_INCIDENT_FROM} WHERE i.id = ANY($1::bigint[]) ORDER BY i.id`, [ids]),
  );
}

/** Writes one line of an incident's log. */
export async function logIncidentAction(
  db: Queryable,
  incidentId: string,
  kind: string,
  by: { userId?: number | null; userName?: string; note?: string; level?: number | null; dispatchId?: string; deviceCount?: number } = {},
): Promise<void> {
  await db.query(
    `INSERT INTO alarm_incident_action (incident_id, kind, user_id, user_name, note, level, dispatch_id, device_count)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [incidentId, kind, by.userId ?? null, by.userName ?? '', by.note ?? '', by.level ?? null, by.dispatchId ?? null, by.deviceCount ?? null],
  );
}
