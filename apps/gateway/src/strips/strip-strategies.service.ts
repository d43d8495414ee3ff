import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import {
  DeviceFamily,
  type LampControlResult,
  type LampSchedule,
  type PageResult,
  type SchedulePlace,
  type StrategyMode,
  type StrategyRow,
  type StrategyRules,
} from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { isForeignKeyViolation } from '../common/pg-errors';
import type { Caller } from '../common/request-context';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { DispatchService } from '../dispatch/dispatch.service';
import { InjectDb } from '../infra/database';
import type { StrategyAddOrEditDto, StrategyDistributeDto, StrategyPageDto } from '../strategies/dto/strategy.dto';
import { lampPlaces } from '../strategies/lamp-places';
import { StrategiesService } from '../strategies/strategies.service';
import { stripsByIds, stripsOfRegion } from './strips.service';

/**
 * Strip light strategies (/smartLamp/lightStrategy): the strategies helper's engine with family `strip` (the same
 * modes, periods, validation and messages), distributed to strip lights through the ledger as a `schedule` command
 * that each strip runs by its own clock.
 */
@Injectable()
export class StripStrategiesService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly strategies: StrategiesService,
    private readonly dispatches: DispatchService,
  ) {}

  page(q: StrategyPageDto): Promise<PageResult<StrategyRow>> {
    return this.strategies.page('strip', q);
  }

  save(caller: Caller, dto: StrategyAddOrEditDto): Promise<{ id: number }> {
    return this.strategies.save(caller, 'strip', dto);
  }

  /** Deletes a strip strategy no strip holds. */
  async remove(id: number): Promise<void> {
    const [{ count }]: { count: number }[] = await this.db.query(`SELECT count(*)::int AS count FROM strip_light WHERE strategy_id = $1`, [id]);
    if (count > 0) throw AppException.conflict('strategyInUse', { count });
    await this.strategies.remove('strip', id);
  }

  /**
   * Distributes a strip strategy to the selected strips or every strip of a region (Open and close, as for lamps):
   * each strip's schedule is compiled with its own place, recorded on the strip and sent as a `schedule` command, in
   * one transaction.
   */
  async distribute(caller: Caller, dto: StrategyDistributeDto): Promise<LampControlResult> {
    this.dispatches.assertMayControl(caller, DeviceFamily.Strip, 'schedule');
    const byIds = dto.ids !== undefined && dto.ids !== null;
    const byRegion = dto.regionId !== undefined && dto.regionId !== null;
    if (byIds && byRegion) throw AppException.badRequest('stripSelectionAmbiguous');
    if (!byRegion && (!byIds || dto.ids?.length === 0)) throw AppException.badRequest('stripSelectionEmpty');
    try {
      const dispatchId = await this.db.transaction(async (tx) => {
        const [strategy]: { id: number; name: string; mode: StrategyMode; modeData: unknown; periods: unknown }[] = await tx.query(
          `SELECT id, name, mode, mode_data AS "modeData", periods FROM strategy WHERE id = $1 AND family = 'strip' FOR KEY SHARE`,
          [dto.id],
        );
        if (!strategy) throw AppException.field('id', 'strategyNotFound');
        const rules = { mode: strategy.mode, modeData: strategy.modeData, periods: strategy.periods } as StrategyRules;
        const deviceIds = byIds ? await stripsByIds(tx, dto.ids ?? []) : await stripsOfRegion(tx, dto.regionId as number);
        const places = await lampPlaces((sql, params) => tx.query(sql, params), deviceIds, this.config.defaultPlace);
        const schedules: LampSchedule[] = deviceIds.map((id) => ({
          strategyId: strategy.id,
          name: strategy.name,
          rules,
          place: (places.get(id) as { place: SchedulePlace }).place,
        }));
        await tx.query(
          `UPDATE strip_light s SET strategy_id = $2, mode = $3, mode_data = $4, job_list = t.job_list
             FROM unnest($1::int[], $5::jsonb[]) AS t(device_id, job_list)
            WHERE s.device_id = t.device_id`,
          [deviceIds, strategy.id, strategy.mode, JSON.stringify(strategy.modeData), schedules.map((s) => JSON.stringify(s))],
        );
        return this.dispatches.create(tx, {
          family: DeviceFamily.Strip,
          action: 'schedule',
          params: { strategyId: strategy.id, name: strategy.name },
          createdBy: caller.username,
          deviceIds,
          itemParams: schedules,
        });
      });
      return { dispatchId };
    } catch (err) {
      if (isForeignKeyViolation(err)) throw AppException.badRequest('stripSelectionEmpty');
      throw err;
    }
  }
}
