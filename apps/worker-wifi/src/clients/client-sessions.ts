import type { PoolClient } from 'pg';
import { DeviceFamily } from '@sc/contracts';
import { believedTime, type ChangeObserver, type DeviceEvent, type RowChange } from '@sc/device-runtime';
import type { ApEvent } from '../families/ap.handler';

/** A client associated with an access point, as the write leaves it. */
interface OpenClient {
  apId: number;
  mac: string;
  ip: string;
  ssid: string;
  signal: number;
  since: string;
}

/** A session that ended. */
interface EndedSession extends OpenClient {
  until: string;
}

/** What one write does to the clients, worked out in memory from the events in order. */
export interface ClientWrites {
  /** Clients associated before the write that left: their stored row becomes a session ending then. */
  left: { apId: number; mac: string; until: string; signal: number | null }[];
  /** Access points that went offline: every client stored before the write ends then. */
  apsOffline: { apId: number; until: string }[];
  /** Sessions that began and ended within the write. */
  ended: EndedSession[];
  /** Clients associated after the write (joined within it). */
  opened: OpenClient[];
  /** New signal strengths of clients stored before the write that are still there. */
  signals: { apId: number; mac: string; signal: number }[];
}

/**
 * Folds the access points' events into the writes they need, in each access point's order: a client that joined and
 * left within the write becomes a session without ever being stored as online; one that was stored and leaves is
 * moved to the history; an access point that drops off ends every client it had. Pure, for the unit tests.
 */
export function clientWritesOf(events: ReadonlyMap<number, readonly DeviceEvent[]>): ClientWrites {
  const writes: ClientWrites = { left: [], apsOffline: [], ended: [], opened: [], signals: [] };
  for (const [apId, list] of events) {
    // Clients that joined within this write, by MAC; and whether the stored ones are already ended.
    const open = new Map<string, OpenClient>();
    const storedSignals = new Map<string, number>();
    const storedLeft = new Set<string>();
    let storedEnded = false;
    for (const event of list as readonly ApEvent[]) {
      if (event.kind === 'offline') {
        const until = event.silentSince ?? event.at;
        for (const client of open.values()) writes.ended.push({ ...client, until });
        open.clear();
        if (!storedEnded) writes.apsOffline.push({ apId, until });
        storedEnded = true;
        continue;
      }
      if (event.kind !== 'report' || event.channel !== 'event') continue;
      const r = event.report;
      const mac = r.clientMac.toUpperCase();
      const at = believedTime(r.ts, event.at);
      const mine = open.get(mac);
      if (r.kind === 'join') {
        // A join of a client already online here (a lost leave) ends the session it had.
        if (mine) writes.ended.push({ ...mine, until: at });
        else if (!storedEnded && !storedLeft.has(mac)) {
          storedLeft.add(mac);
          writes.left.push({ apId, mac, until: at, signal: storedSignals.get(mac) ?? null });
        }
        open.set(mac, { apId, mac, ip: r.clientIp ?? '', ssid: r.clientSsid ?? '', signal: r.signalStrength ?? 0, since: at });
      } else if (r.kind === 'leave') {
        if (mine) {
          writes.ended.push({ ...mine, signal: r.signalStrength ?? mine.signal, until: at });
          open.delete(mac);
        } else if (!storedEnded && !storedLeft.has(mac)) {
          storedLeft.add(mac);
          writes.left.push({ apId, mac, until: at, signal: r.signalStrength ?? storedSignals.get(mac) ?? null });
        }
      } else if (r.signalStrength !== undefined) {
        if (mine) mine.signal = r.signalStrength;
        else if (!storedEnded && !storedLeft.has(mac)) storedSignals.set(mac, r.signalStrength);
      }
    }
    writes.opened.push(...open.values());
    for (const [mac, signal] of storedSignals) if (!storedLeft.has(mac)) writes.signals.push({ apId, mac, signal });
  }
  return writes;
}

const SESSION_COLUMNS = `ap_id, ac_id, region_id, client_mac, client_ip, client_ssid, signal_strength, on_line_date, off_line_date, duration`;
/** The controller and the region of the access point `ap` now, as the session keeps them. */
const placeOf = (ap: string) => `(SELECT ac_id FROM wifi_ap WHERE device_id = ${ap}), (SELECT region_id FROM device WHERE id = ${ap})`;
/** Whole seconds from `on` to `off`. */
const durationSql = (on: string, off: string): string => `greatest(0, round(extract(epoch FROM (${off} - ${on}))))::int`;

/**
 * Keeps the Wi-Fi clients of the access points in the same transaction as their rows: who is associated now
 * (`wifi_client`) and every ended session (`wifi_session`), from the client events the access points report and
 * their going offline.
 */
export class ClientSessions implements ChangeObserver<typeof DeviceFamily.AccessPoint> {
  readonly family = DeviceFamily.AccessPoint;

  async observe(client: PoolClient, _changes: readonly RowChange[], events: ReadonlyMap<number, readonly DeviceEvent[]>): Promise<void> {
    const w = clientWritesOf(events);
    if (w.left.length > 0) {
      await client.query(
        `WITH gone AS (
           DELETE FROM wifi_client c USING unnest($1::int[], $2::text[], $3::timestamptz[], $4::int[]) AS t(ap, mac, o, sig)
            WHERE c.ap_id = t.ap AND c.client_mac = t.mac
           RETURNING c.*, t.o, t.sig)
         INSERT INTO wifi_session (${SESSION_COLUMNS})
         SELECT ap_id, ${placeOf('ap_id')}, client_mac, client_ip, client_ssid, coalesce(sig, signal_strength), on_line_date, greatest(o, on_line_date),
                ${durationSql('on_line_date', 'o')}
           FROM gone`,
        [w.left.map((l) => l.apId), w.left.map((l) => l.mac), w.left.map((l) => l.until), w.left.map((l) => l.signal)],
      );
    }
    if (w.apsOffline.length > 0) {
      await client.query(
        `WITH gone AS (
           DELETE FROM wifi_client c USING unnest($1::int[], $2::timestamptz[]) AS t(ap, o) WHERE c.ap_id = t.ap RETURNING c.*, t.o)
         INSERT INTO wifi_session (${SESSION_COLUMNS})
         SELECT ap_id, ${placeOf('ap_id')}, client_mac, client_ip, client_ssid, signal_strength, on_line_date, greatest(o, on_line_date),
                ${durationSql('on_line_date', 'o')}
           FROM gone`,
        [w.apsOffline.map((a) => a.apId), w.apsOffline.map((a) => a.until)],
      );
    }
    if (w.ended.length > 0) {
      await client.query(
        `INSERT INTO wifi_session (${SESSION_COLUMNS})
         SELECT ap, ${placeOf('ap')}, mac, ip, ssid, sig, s, greatest(o, s), ${durationSql('s', 'o')}
           FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::int[], $6::timestamptz[], $7::timestamptz[]) AS t(ap, mac, ip, ssid, sig, s, o)`,
        [...columnsOf(w.ended), w.ended.map((e) => e.until)],
      );
    }
    if (w.opened.length > 0) {
      await client.query(
        `INSERT INTO wifi_client (ap_id, client_mac, client_ip, client_ssid, signal_strength, on_line_date)
         SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::int[], $6::timestamptz[])
         ON CONFLICT (ap_id, client_mac) DO UPDATE SET client_ip = excluded.client_ip, client_ssid = excluded.client_ssid,
           signal_strength = excluded.signal_strength, on_line_date = excluded.on_line_date`,
        columnsOf(w.opened),
      );
    }
    if (w.signals.length > 0) {
      await client.query(
        `UPDATE wifi_client c SET signal_strength = t.sig FROM unnest($1::int[], $2::text[], $3::int[]) AS t(ap, mac, sig)
          WHERE c.ap_id = t.ap AND c.client_mac = t.mac`,
        [w.signals.map((s) => s.apId), w.signals.map((s) => s.mac), w.signals.map((s) => s.signal)],
      );
    }
  }
}

function columnsOf(rows: readonly OpenClient[]): unknown[] {
  return [
    rows.map((r) => r.apId),
    rows.map((r) => r.mac),
    rows.map((r) => r.ip),
    rows.map((r) => r.ssid),
    rows.map((r) => r.signal),
    rows.map((r) => r.since),
  ];
}
