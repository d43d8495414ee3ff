import { Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import {
  ALARM_KINDS,
  AlarmKind,
  AlarmState,
  familyDeclaration,
  type FamilyName,
  type FaultCode,
  type AlarmActionResult,
  type AlarmChangedEvent,
  type AlarmRow,
  type AlarmSummary,
  type PageResult,
} from '@sc/contracts';
import { ALARM_ROW_COLUMNS, ALARM_ROW_FROM, alarmRowsFrom } from '@sc/database';
import { AppException } from '../common/app-exception';
import type { Caller } from '../common/request-context';
import { Where, likeContains, pagedQuery } from '../common/sql';
import { InjectDb } from '../infra/database';
import { EventBus } from '../infra/event-bus.service';
import { REGION_AND_BELOW } from '../common/device-selection';
import type { AlarmPageDto } from './dto/alarm.dto';

/** An error names at most this many unknown ids. */
const UNKNOWN_IDS_SHOWN = 10;

/** Whether these are exactly one family, whose devices are records of their own rather than registry devices. */
function ownRecordFamily(families: readonly FamilyName[]): boolean {
  return families.length === 1 && familyDeclaration(families[0])?.deviceType === null;
}

/**
 * Device alarms (raised and cleared by the lighting worker) for operators: the page with its filters, acknowledge and
 * clear. Every change is published on the bus, so every console (on any gateway replica) updates at once.
 */
@Injectable()
export class AlarmsService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    private readonly bus: EventBus,
  ) {}

  /** A page of the alarms of these families (the ones the caller may see, or the one it chose). */
  page(q: AlarmPageDto, families: readonly FamilyName[]): Promise<PageResult<AlarmRow>> {
    if (q.raisedFrom && q.raisedTo && Date.parse(q.raisedFrom) >= Date.parse(q.raisedTo)) throw AppException.field('raisedTo', 'orderWrong');
    if (q.code !== undefined && q.kind !== undefined && q.kind !== AlarmKind.Fault) throw AppException.field('code', 'alarmCodeNeedsFault');
    // Each family's alarms are its own, seen with its roles: the callers name the families.
    const where = new Where()
      .add(`a.family = ANY(?)`, families)
      .addIf(q.regionId, `d.region_id IN (${REGION_AND_BELOW})`)
      .addIf(q.code !== undefined ? AlarmKind.Fault : q.kind, `a.kind = ?`)
      .addIf(q.code, `a.code = ?`)
      .addIf(q.state, `a.state = ?`)
      .addIf(q.open ? AlarmState.Cleared : undefined, `a.state <> ?`)
      // Name and code in one text, so the keyword needs one parameter; device codes cannot hold the separator.
      .addIf(q.keyword, `lower(d.name || '|' || d.code) LIKE ?`, q.keyword && likeContains(q.keyword))
      .addIf(q.raisedFrom, `a.raised_at >= ?`)
      .addIf(q.raisedTo, `a.raised_at < ?`);
    // One device's history: a registry device's, or, when the page shows one family whose devices are records of
    // their own (lamp gateways, floor screens), that record's (the records' ids and the registry's overlap).
    if (q.deviceId !== undefined) where.add(ownRecordFamily(families) ? `a.record_id = ?` : `a.device_id = ?`, q.deviceId);
    return pagedQuery<AlarmRow>(this.db, {
      select: ALARM_ROW_COLUMNS,
      ...alarmRowsFrom(families),
      where,
      orderBy: 'a.raised_at DESC, a.id DESC',
      outerOrderBy: 'page."raisedAt" DESC, page.id DESC',
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    });
  }

  /** Open alarms by state, kind and fault code. */
  async summary(families: readonly FamilyName[]): Promise<AlarmSummary> {
    const rows: { state: AlarmState; kind: AlarmKind; code: number; n: number }[] = await this.db.query(
      `SELECT state, kind, code, count(*)::int AS n FROM device_alarm WHERE state <> 'cleared' AND family = ANY($1) GROUP BY state, kind, code`,
      [families],
    );
    const summary: AlarmSummary = {
      active: 0,
      acknowledged: 0,
      byKind: Object.fromEntries(ALARM_KINDS.map((k) => [k, 0])) as AlarmSummary['byKind'],
      byCode: {},
    };
    for (const row of rows) {
      if (row.state === AlarmState.Active) summary.active += row.n;
      else summary.acknowledged += row.n;
      summary.byKind[row.kind] += row.n;
      const code = row.code as FaultCode;
      if (row.kind === AlarmKind.Fault) summary.byCode[code] = (summary.byCode[code] ?? 0) + row.n;
    }
    return summary;
  }

  /** Active alarms become acknowledged (who, when); acknowledged and cleared ones stay as they are. */
  acknowledge(caller: Caller, ids: readonly number[], families: readonly FamilyName[]): Promise<AlarmActionResult> {
    return this.change(
      ids,
      families,
      'acknowledged',
      `state = 'acknowledged', acknowledged_at = now(), acknowledged_by = $2`,
      `a.state = 'active'`,
      caller,
    );
  }

  /** Open alarms are cleared by the operator (who, when); the device raising the fault again opens a new one. */
  clear(caller: Caller, ids: readonly number[], families: readonly FamilyName[]): Promise<AlarmActionResult> {
    return this.change(ids, families, 'cleared', `state = 'cleared', cleared_at = now(), cleared_by = $2`, `a.state <> 'cleared'`, caller);
  }

  /** Alarms of other families than these are unknown to the caller (its roles do not see them). */
  private async change(
    ids: readonly number[],
    families: readonly FamilyName[],
    change: AlarmChangedEvent['change'],
    set: string,
    eligible: string,
    caller: Caller,
  ): Promise<AlarmActionResult> {
    const wanted = [...new Set(ids)].sort((x, y) => x - y);
    const changed = await this.db.transaction(async (tx) => {
      const found: { id: number; state: AlarmState }[] = await tx.query(
        `SELECT id, state FROM device_alarm WHERE id = ANY($1::int[]) AND family = ANY($2) ORDER BY id FOR UPDATE`,
        [wanted, families],
      );
      if (found.length < wanted.length) {
        const known = new Set(found.map((r) => r.id));
        const unknown = wanted.filter((id) => !known.has(id));
        const shown =
          unknown.slice(0, UNKNOWN_IDS_SHOWN).join(', ') + (unknown.length > UNKNOWN_IDS_SHOWN ? ` (+${unknown.length - UNKNOWN_IDS_SHOWN})` : '');
        throw AppException.field('ids', 'unknownAlarms', { ids: shown });
      }
      if (found.every((r) => r.state === AlarmState.Cleared)) throw AppException.badRequest('alarmsAlreadyCleared');
      // An UPDATE answers [rows, affected count] through TypeORM.
      const [updated] = (await tx.query(`UPDATE device_alarm a SET ${set} WHERE a.id = ANY($1::int[]) AND ${eligible} RETURNING a.id`, [
        wanted,
        caller.username,
      ])) as [{ id: number }[], number];
      if (updated.length === 0) return [];
      return (await tx.query(`SELECT ${ALARM_ROW_COLUMNS} FROM ${ALARM_ROW_FROM} WHERE a.id = ANY($1::int[]) ORDER BY a.id`, [
        updated.map((r) => r.id),
      ])) as AlarmRow[];
    });
    const at = new Date().toISOString();
    for (const alarm of changed) {
      this.bus.publish('AlarmChanged', { family: alarm.family, change, alarm, at });
    }
    return { changed: changed.length };
  }
}
