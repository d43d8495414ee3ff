import { Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DeviceFamily, type LampControlResult, type PageResult, type StrategyRow } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { isForeignKeyViolation } from '../common/pg-errors';
import type { Caller } from '../common/request-context';
import { DispatchService } from '../dispatch/dispatch.service';
import { InjectDb } from '../infra/database';
import type { StrategyAddOrEditDto, StrategyDistributeDto, StrategyPageDto } from '../strategies/dto/strategy.dto';
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
  remove(id: number): Promise<void> {
    return this.strategies.remove('strip', id);
  }

  /**
   * Distributes a strip strategy to the selected strips or every strip of a region (Open and close, as for lamps):
   * each strip's schedule is compiled with its own place, recorded on the strip and sent as a `schedule` command,
   * replacing any older schedule still on its way to it, in one transaction (StrategiesService.distributeSchedules).
   */
  async distribute(caller: Caller, dto: StrategyDistributeDto): Promise<LampControlResult> {
    this.dispatches.assertMayControl(caller, DeviceFamily.Strip, 'schedule');
    const byIds = dto.ids !== undefined && dto.ids !== null;
    const byRegion = dto.regionId !== undefined && dto.regionId !== null;
    if (byIds && byRegion) throw AppException.badRequest('stripSelectionAmbiguous');
    if (!byRegion && (!byIds || dto.ids?.length === 0)) throw AppException.badRequest('stripSelectionEmpty');
    try {
      const dispatchId = await this.db.transaction((tx) =>
        this.strategies.distributeSchedules(tx, caller, 'strip', dto.id, () =>
          byIds ? stripsByIds(tx, dto.ids ?? []) : stripsOfRegion(tx, dto.regionId as number),
        ),
      );
      return { dispatchId };
    } catch (err) {
      if (isForeignKeyViolation(err)) throw AppException.badRequest('stripSelectionEmpty');
      throw err;
    }
  }
}
