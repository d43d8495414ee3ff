import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { commandLedger } from '@sc/device-runtime';
import {
  Button,
  DeviceFamily,
  LAMP_FAMILY,
  STRIP_FAMILY,
  OnlineState,
  StrategyMode,
  strategyProblems,
  type DimmingLevel,
  type LampControlResult,
  type LampSchedule,
  type LampScheduleView,
  type PageResult,
  type SchedulePlace,
  type ScheduleMismatches,
  type StrategyFamily,
  type StrategyRow,
  type StrategyRules,
  type Weekday,
} from '@sc/contracts';
import type { MessageKey } from '@sc/i18n';
import { disagreesWithSchedule, intervalAt, nightOf, nightSun, planNight } from '@sc/schedule';
import { AppException } from '../common/app-exception';
import { isUniqueViolation } from '../common/pg-errors';
import type { Caller } from '../common/request-context';
import { Where, likeContains, pagedQuery } from '../common/sql';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { DeviceControlService, type SelectionWording } from '../dispatch/device-control.service';
import { InjectDb } from '../infra/database';
import { lampPlaces } from './lamp-places';
import { LAMP_SELECTION } from '../lighting/lighting.service';
import { sqlOf } from '../infra/sql';
import type { MismatchQueryDto, StrategyAddOrEditDto, StrategyDistributeDto, StrategyPageDto } from './dto/strategy.dto';

const STRATEGY_COLUMNS = `s.id, s.name, s.family, s.mode, s.mode_data AS "modeData", s.periods, s.updated_at AS "updatedAt",
  CASE WHEN s.family = 'strip' THEN (SELECT count(*)::int FROM strip_light t WHERE t.strategy_id = s.id)
       ELSE (SELECT count(*)::int FROM lamp l WHERE l.strategy_id = s.id) END AS "deviceCount"`;

/** The mismatch answer lists at most this many lamps; the counts cover all. */
const MISMATCH_LAMPS_SHOWN = 500;

/** The rules as stored and distributed: only the fields of the mode, in a fixed shape. */
function normalised(dto: StrategyAddOrEditDto): StrategyRules {
  const data = dto.modeData as unknown as Record<string, unknown>;
  const periods = dto.periods.map((p) => ({ start: p.start, end: p.end, level: p.level }));
  switch (dto.mode) {
    case StrategyMode.SunriseSunset:
      return {
        mode: dto.mode,
        modeData: {
          sunsetOffset: (data.sunsetOffset as number) ?? 0,
          sunriseOffset: (data.sunriseOffset as number) ?? 0,
          level: data.level as DimmingLevel,
        },
        periods,
      };
    case StrategyMode.Date:
      return { mode: dto.mode, modeData: { startDate: data.startDate as string, endDate: data.endDate as string }, periods };
    case StrategyMode.Week:
      return { mode: dto.mode, modeData: { weekdays: [...((data.weekdays as Weekday[] | undefined) ?? [])].sort() }, periods };
    case StrategyMode.Sensing:
      return {
        mode: dto.mode,
        modeData: { radarCodes: data.radarCodes as string[], brightness: data.brightness as DimmingLevel, holdSeconds: data.holdSeconds as number },
        periods,
      };
  }
}

/**
 * Lighting strategies (spec: strategy modes, periods, dimming levels), their distribution to lamps through the
 * command ledger, and each lamp's effective schedule. `family` keeps lamp and strip strategies apart on one engine.
 */
@Injectable()
export class StrategiesService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly devices: DeviceControlService,
  ) {}

  page(family: StrategyFamily, q: StrategyPageDto): Promise<PageResult<StrategyRow>> {
    const where = new Where()
      .add(`s.family = ?`, family)
      .addIf(q.name, `lower(s.name) LIKE ?`, q.name && likeContains(q.name))
      .addIf(q.mode, `s.mode = ?`);
    return pagedQuery<StrategyRow>(this.db, {
      select: STRATEGY_COLUMNS,
      from: 'strategy s',
      where,
      orderBy: 's.id',
      outerOrderBy: 'page.id',
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    });
  }

  /** Adds (no id, Add button) or changes (Edit button) a strategy; lamps keep the schedule they hold until it is distributed again. */
  async save(caller: Caller, family: StrategyFamily, dto: StrategyAddOrEditDto): Promise<{ id: number }> {
    if (!caller.buttons.includes(dto.id === undefined ? Button.Add : Button.Edit)) throw AppException.forbidden();
    const problems = strategyProblems(dto.mode, dto.modeData, dto.periods);
    if (problems.length > 0)
      throw AppException.badRequest(
        'validationField',
        {},
        problems.map((p) => ({ field: p.field, key: p.key as MessageKey, params: p.params })),
      );
    const rules = normalised(dto);
    try {
      if (dto.id === undefined) {
        const [{ id }]: { id: number }[] = await this.db.query(
          `INSERT INTO strategy (family, name, mode, mode_data, periods, created_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
          [family, dto.name, rules.mode, JSON.stringify(rules.modeData), JSON.stringify(rules.periods), caller.username],
        );
        return { id };
      }
      const [, affected] = (await this.db.query(
        `UPDATE strategy SET name = $3, mode = $4, mode_data = $5, periods = $6, updated_at = now() WHERE id = $1 AND family = $2`,
        [dto.id, family, dto.name, rules.mode, JSON.stringify(rules.modeData), JSON.stringify(rules.periods)],
      )) as [unknown, number];
      if (!affected) throw AppException.notFound('strategyNotFound');
      return { id: dto.id };
    } catch (err) {
      if (isUniqueViolation(err)) throw AppException.taken('name', 'strategyNameTaken', { name: dto.name });
      throw err;
    }
  }

  /**
   * Deletes a strategy no device holds (Delete button); devices running it keep it, so it stays until they get another.
   * The row lock makes a distribution of it wait (it takes FOR KEY SHARE), so the count is the devices that hold it.
   */
  async remove(family: StrategyFamily, id: number): Promise<void> {
    const holders = family === 'strip' ? 'strip_light' : 'lamp';
    await this.db.transaction(async (tx) => {
      const found: unknown[] = await tx.query(`SELECT 1 FROM strategy WHERE id = $1 AND family = $2 FOR UPDATE`, [id, family]);
      if (found.length === 0) throw AppException.notFound('strategyNotFound');
      const [{ count }]: { count: number }[] = await tx.query(`SELECT count(*)::int AS count FROM ${holders} WHERE strategy_id = $1`, [id]);
      if (count > 0) throw AppException.conflict('strategyInUse', { count });
      await tx.query(`DELETE FROM strategy WHERE id = $1`, [id]);
    });
  }

  /**
   * Distributes a lamp strategy to the selected lamps or to every lamp of a region (the "Open and close" button, as it
   * decides when lamps open and close): each lamp's schedule is compiled with its own place, recorded on the lamp
   * (strategyId, mode, modeData, jobList) and sent through the ledger as a `schedule` command, replacing any older
   * schedule still on its way to it, in one transaction (distributeSchedules).
   */
  distribute(caller: Caller, dto: StrategyDistributeDto): Promise<LampControlResult> {
    return this.distributeSchedules(caller, LAMP_FAMILY, dto, LAMP_SELECTION);
  }

  /**
   * The distribution of lamp and strip strategies: once the devices are selected and locked (DeviceControlService),
   * each device's schedule is compiled with its own place and recorded on it (strategyId, mode, modeData, jobList), the
   * open rows of its earlier schedule dispatches are expired, and the schedules go out through the ledger as one
   * `schedule` dispatch, all in one transaction.
   */
  async distributeSchedules(
    caller: Caller,
    family: typeof LAMP_FAMILY | typeof STRIP_FAMILY,
    dto: StrategyDistributeDto,
    wording: SelectionWording,
  ): Promise<LampControlResult> {
    const strategyFamily: StrategyFamily = family.family === DeviceFamily.Strip ? 'strip' : 'lamp';
    const find = (tx: EntityManager | DataSource, lock: string) =>
      tx.query(`SELECT id, name, mode, mode_data AS "modeData", periods FROM strategy WHERE id = $1 AND family = $2 ${lock}`, [
        dto.id,
        strategyFamily,
      ]) as Promise<{ id: number; name: string; mode: StrategyMode; modeData: unknown; periods: unknown }[]>;
    // A missing strategy is named before anything about the devices, as the form shows it first.
    if ((await find(this.db, '')).length === 0) throw AppException.field('id', 'strategyNotFound');
    return this.devices.dispatch(caller, family, dto, 'schedule', wording, async (tx, deviceIds) => {
      const [strategy] = await find(tx, 'FOR KEY SHARE');
      if (!strategy) throw AppException.field('id', 'strategyNotFound');
      const rules = { mode: strategy.mode, modeData: strategy.modeData, periods: strategy.periods } as StrategyRules;
      const places = await this.placesOf(tx, deviceIds);
      const schedules: LampSchedule[] = deviceIds.map((id) => ({
        strategyId: strategy.id,
        name: strategy.name,
        rules,
        place: (places.get(id) as { place: SchedulePlace }).place,
      }));
      await commandLedger.supersedeSchedules(sqlOf(tx), family.family, deviceIds);
      await tx.query(
        `UPDATE ${family.table} h SET strategy_id = $2, mode = $3, mode_data = $4, job_list = t.job_list
           FROM unnest($1::int[], $5::jsonb[]) AS t(device_id, job_list)
          WHERE h.device_id = t.device_id`,
        [deviceIds, strategy.id, strategy.mode, JSON.stringify(strategy.modeData), schedules.map((s) => JSON.stringify(s))],
      );
      return { params: { strategyId: strategy.id, name: strategy.name }, itemParams: schedules };
    });
  }

  /** A lamp's schedule tonight: its strategy and periods, the sun at its place, what it should do now and whether it does. */
  async lampSchedule(id: number, now = new Date()): Promise<LampScheduleView> {
    const [lamp]: {
      id: number;
      jobList: LampSchedule | null;
      switchState: 0 | 1;
      bri: DimmingLevel;
      networkStatus: OnlineState;
      strategyName: string | null;
    }[] = await this.db.query(
      `SELECT d.id, l.job_list AS "jobList", l.switch_state AS "switchState", l.bri, l.network_status AS "networkStatus", s.name AS "strategyName"
         FROM device d JOIN lamp l ON l.device_id = d.id LEFT JOIN strategy s ON s.id = l.strategy_id
        WHERE d.id = $1`,
      [id],
    );
    if (!lamp) throw AppException.notFound();
    const resolved = (await this.placesOf(this.db.manager, [id])).get(id) as { place: SchedulePlace; source: LampScheduleView['placeSource'] };
    const schedule = lamp.jobList;
    const place = schedule?.place ?? resolved.place;
    const night = nightOf(now, place.timeZone);
    const sun = nightSun(place, night);
    const reportedLevel = lamp.switchState ? lamp.bri : 0;
    const view: LampScheduleView = {
      lampId: id,
      strategy: schedule ? { id: schedule.strategyId, name: lamp.strategyName ?? schedule.name, mode: schedule.rules.mode } : null,
      place,
      placeSource: schedule ? (samePlace(schedule.place, resolved.place) ? resolved.source : null) : resolved.source,
      night,
      sunset: sun.sunset?.toISOString() ?? null,
      sunrise: sun.sunrise?.toISOString() ?? null,
      intervals: [],
      levelNow: null,
      reported: { switchState: lamp.switchState, bri: lamp.bri },
      mismatch: false,
    };
    if (!schedule) return view;
    const plan = planNight(schedule.rules, schedule.place, night);
    view.intervals = plan.intervals.map((i) => ({ start: i.start.toISOString(), end: i.end.toISOString(), level: i.level }));
    view.levelNow = intervalAt(plan, now)?.level ?? 0;
    view.mismatch = lamp.networkStatus === OnlineState.Online && disagreesWithSchedule(schedule.rules, plan, now, reportedLevel);
    return view;
  }

  /** Online lamps running a schedule whose reported level disagrees with it now (offline lamps report nothing to compare). */
  async mismatches(q: MismatchQueryDto, now = new Date()): Promise<ScheduleMismatches> {
    const where = new Where().add(`l.job_list IS NOT NULL AND l.network_status = ?`, OnlineState.Online).addIf(q.strategyId, `l.strategy_id = ?`);
    const rows: { id: number; lampName: string; clientId: string; jobList: LampSchedule; switchState: 0 | 1; bri: DimmingLevel }[] =
      await this.db.query(
        `SELECT d.id, d.name AS "lampName", d.code AS "clientId", l.job_list AS "jobList", l.switch_state AS "switchState", l.bri
           FROM device d JOIN lamp l ON l.device_id = d.id ${where} ORDER BY d.id`,
        where.params,
      );
    // Lamps share a few schedules and places: plan each combination once.
    const plans = new Map<string, ReturnType<typeof planNight>>();
    const result: ScheduleMismatches = { checkedAt: now.toISOString(), byStrategy: {}, total: 0, lamps: [] };
    for (const row of rows) {
      const { rules, place, strategyId } = row.jobList;
      const key = JSON.stringify([rules, place]);
      let plan = plans.get(key);
      if (!plan) plans.set(key, (plan = planNight(rules, place, nightOf(now, place.timeZone), false)));
      const reported = (row.switchState ? row.bri : 0) as DimmingLevel;
      if (!disagreesWithSchedule(rules, plan, now, reported)) continue;
      result.total++;
      result.byStrategy[strategyId] = (result.byStrategy[strategyId] ?? 0) + 1;
      if (result.lamps.length < MISMATCH_LAMPS_SHOWN)
        result.lamps.push({
          id: row.id,
          lampName: row.lampName,
          clientId: row.clientId,
          strategyId,
          expected: intervalAt(plan, now)?.level ?? 0,
          reported,
        });
    }
    return result;
  }

  private placesOf(tx: EntityManager, deviceIds: readonly number[]) {
    return lampPlaces((sql, params) => tx.query(sql, params), deviceIds, this.config.defaultPlace);
  }
}

function samePlace(a: SchedulePlace, b: SchedulePlace): boolean {
  return a.latitude === b.latitude && a.longitude === b.longitude && a.timeZone === b.timeZone;
}
