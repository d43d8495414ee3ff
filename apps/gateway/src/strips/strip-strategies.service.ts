import { Injectable } from '@nestjs/common';
import { STRIP_FAMILY, type LampControlResult, type PageResult, type StrategyRow } from '@sc/contracts';
import type { Caller } from '../common/request-context';
import type { StrategyAddOrEditDto, StrategyDistributeDto, StrategyPageDto } from '../strategies/dto/strategy.dto';
import { StrategiesService } from '../strategies/strategies.service';
import { STRIP_SELECTION } from './strips.service';

/**
 * Strip light strategies (/smartLamp/lightStrategy): the strategies helper's engine with family `strip` (the same
 * modes, periods, validation and messages), distributed to strip lights through the ledger as a `schedule` command
 * that each strip runs by its own clock.
 */
@Injectable()
export class StripStrategiesService {
  constructor(private readonly strategies: StrategiesService) {}

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
  distribute(caller: Caller, dto: StrategyDistributeDto): Promise<LampControlResult> {
    return this.strategies.distributeSchedules(caller, STRIP_FAMILY, dto, STRIP_SELECTION);
  }
}
