import { Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { Button, OnlineState, type SignageGroupRow } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { isForeignKeyViolation, isUniqueViolation } from '../common/pg-errors';
import type { Caller } from '../common/request-context';
import { InjectDb } from '../infra/database';
import type { SignageGroupAddOrEditDto } from './dto/group.dto';

/** Floor-screen groups: a name each (unique in any case); a player is in at most one. */
@Injectable()
export class SignageGroupsService {
  constructor(@InjectDb() private readonly db: DataSource) {}

  /** Every group by name, with how many players it has and how many of them are online. */
  list(): Promise<SignageGroupRow[]> {
    return this.db.query(
      `SELECT g.id, g.name, count(s.id)::int AS "deviceCount", count(s.id) FILTER (WHERE s.network_status = $1)::int AS "onlineCount"
         FROM signage_group g LEFT JOIN signage_device s ON s.group_id = g.id
        GROUP BY g.id ORDER BY lower(g.name), g.id`,
      [OnlineState.Online],
    );
  }

  /** Adds a group (no id; Add button) or renames one (Edit). */
  async save(caller: Caller, dto: SignageGroupAddOrEditDto): Promise<{ id: number }> {
    if (!caller.buttons.includes(dto.id === undefined ? Button.Add : Button.Edit)) throw AppException.forbidden();
    try {
      if (dto.id === undefined) {
        const [{ id }]: { id: number }[] = await this.db.query(`INSERT INTO signage_group (name) VALUES ($1) RETURNING id`, [dto.name]);
        return { id };
      }
      const [, affected] = (await this.db.query(`UPDATE signage_group SET name = $2, updated_at = now() WHERE id = $1`, [dto.id, dto.name])) as [
        unknown,
        number,
      ];
      if (!affected) throw AppException.notFound();
      return { id: dto.id };
    } catch (err) {
      if (isUniqueViolation(err)) throw AppException.taken('name', 'signageGroupNameTaken', { name: dto.name });
      throw err;
    }
  }

  /** Deletes an empty group; one with players is refused (move or delete them first). */
  async remove(id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [group]: { count: number }[] = await tx.query(
        `SELECT (SELECT count(*)::int FROM signage_device s WHERE s.group_id = g.id) AS count FROM signage_group g WHERE g.id = $1 FOR UPDATE`,
        [id],
      );
      if (!group) throw AppException.notFound();
      if (group.count > 0) throw AppException.badRequest('signageGroupNotEmpty', { count: group.count });
      try {
        await tx.query(`DELETE FROM signage_group WHERE id = $1`, [id]);
      } catch (err) {
        // A player bound to it in the meantime.
        if (isForeignKeyViolation(err)) throw AppException.badRequest('signageGroupNotEmpty', { count: 1 });
        throw err;
      }
    });
  }
}
