import { Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { Button, normalisedRadarEvents, radarStrategyProblems, type PageResult, type RadarEventInfo, type RadarStrategyRow } from '@sc/contracts';
import type { MessageKey } from '@sc/i18n';
import { AppException } from '../common/app-exception';
import { isForeignKeyViolation, isUniqueViolation, pgConstraint } from '../common/pg-errors';
import type { Caller } from '../common/request-context';
import { Where, likeContains, pagedQuery } from '../common/sql';
import { InjectDb } from '../infra/database';
import type { RadarStrategyDto, RadarStrategyPageDto } from './dto/radar.dto';

const STRATEGY_COLUMNS = `s.id, s.name, s.group_id AS "groupId", g.name AS "groupName", s.event_infos AS "radarEventInfos"`;
const STRATEGY_FROM = `radar_strategy s JOIN radar_group g ON g.id = s.group_id`;

/**
 * Radar strategies (/radarManage/radarStrategyManagement): events (event ID, brightness, open and close interval)
 * bound to one radar group each. The radar worker hears every change (a trigger announces it) and applies it from
 * the next detection on.
 */
@Injectable()
export class RadarStrategiesService {
  constructor(@InjectDb() private readonly db: DataSource) {}

  page(q: RadarStrategyPageDto): Promise<PageResult<RadarStrategyRow>> {
    return pagedQuery<RadarStrategyRow>(this.db, {
      select: STRATEGY_COLUMNS,
      from: STRATEGY_FROM,
      countFrom: 'radar_strategy s',
      where: new Where().addIf(q.name, `lower(s.name) LIKE ?`, q.name && likeContains(q.name)),
      orderBy: 's.id',
      outerOrderBy: 'page.id',
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    });
  }

  /**
   * Adds (Add button) or changes (Edit) a strategy. Without a group it is refused with 'Please select a group', an
   * event without its ID with 'Please select event ID'; a group has at most one strategy.
   */
  async save(caller: Caller, dto: RadarStrategyDto): Promise<{ id: number }> {
    if (!caller.buttons.includes(dto.id === undefined ? Button.Add : Button.Edit)) throw AppException.forbidden();
    const problems = radarStrategyProblems(dto.groupId, dto.radarEventInfos);
    if (problems.length > 0) {
      throw AppException.badRequest(
        'validationField',
        {},
        problems.map((p) => ({ field: p.field, key: p.key as MessageKey, params: p.params })),
      );
    }
    const events = JSON.stringify(normalisedRadarEvents(dto.radarEventInfos as RadarEventInfo[]));
    try {
      return await this.db.transaction(async (tx) => {
        const [taken]: { name: string }[] = await tx.query(`SELECT name FROM radar_strategy WHERE group_id = $1 AND id IS DISTINCT FROM $2`, [
          dto.groupId,
          dto.id ?? null,
        ]);
        if (taken) throw AppException.field('groupId', 'radarGroupHasStrategy', { name: taken.name });
        if (dto.id === undefined) {
          const [{ id }]: { id: number }[] = await tx.query(
            `INSERT INTO radar_strategy (name, group_id, event_infos) VALUES ($1, $2, $3) RETURNING id`,
            [dto.name, dto.groupId, events],
          );
          return { id };
        }
        const [, affected] = (await tx.query(`UPDATE radar_strategy SET name = $2, group_id = $3, event_infos = $4 WHERE id = $1`, [
          dto.id,
          dto.name,
          dto.groupId,
          events,
        ])) as [unknown, number];
        if (!affected) throw AppException.notFound();
        return { id: dto.id };
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        // Another strategy was bound to the group between the check and the write.
        if (pgConstraint(err) === 'radar_strategy_group_id_key') throw AppException.field('groupId', 'radarGroupHasStrategy', { name: '' });
        throw AppException.taken('name', 'radarStrategyNameTaken', { name: dto.name });
      }
      if (isForeignKeyViolation(err)) throw AppException.field('groupId', 'radarGroupNotFound');
      throw err;
    }
  }

  /** Deletes a strategy (Delete button); lamps it raised return at their time. */
  async remove(id: number): Promise<void> {
    const [, affected] = (await this.db.query(`DELETE FROM radar_strategy WHERE id = $1`, [id])) as [unknown, number];
    if (!affected) throw AppException.notFound();
  }
}
