import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { AreaTreeNode } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { ADVISORY_LOCK, isForeignKeyViolation, isUniqueViolation } from '../common/pg-errors';
import type { CreateRegionDto, UpdateRegionDto } from './dto/region.dto';
import { InjectDb } from '../infra/database';

type RegionRow = Omit<AreaTreeNode, 'childList'>;

/** Builds the nested tree; `keep` (when given) prunes to matching nodes and their ancestors. */
export function buildTree(rows: RegionRow[], keep?: (row: RegionRow) => boolean): AreaTreeNode[] {
  const nodes = new Map<number, AreaTreeNode>(rows.map((r) => [r.id, { ...r, childList: [] }]));
  const roots: AreaTreeNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId !== null ? nodes.get(node.parentId) : undefined;
    (parent ? parent.childList : roots).push(node);
  }
  if (!keep) return roots;
  const prune = (list: AreaTreeNode[]): AreaTreeNode[] =>
    list.flatMap((n) => {
      const children = prune(n.childList);
      return keep(n) || children.length > 0 ? [{ ...n, childList: children }] : [];
    });
  return prune(roots);
}

@Injectable()
export class RegionsService {
  constructor(@InjectDb() private readonly db: DataSource) {}

  async tree(name?: string): Promise<AreaTreeNode[]> {
    const rows: RegionRow[] = await this.db.query(
      `SELECT id, region_name AS name, zh_cn AS "zhCn", en_us AS "enUs", remark, parent_id AS "parentId" FROM region ORDER BY sort, id`,
    );
    const needle = name?.toLowerCase();
    return buildTree(rows, needle ? (r) => [r.name, r.zhCn, r.enUs].some((v) => v.toLowerCase().includes(needle)) : undefined);
  }

  async create(dto: CreateRegionDto): Promise<{ id: number }> {
    await this.assertParentExists(this.db.manager, dto.parentRegion ?? null);
    try {
      const rows: { id: number }[] = await this.db.query(
        `INSERT INTO region (region_name, parent_id, remark, zh_cn, en_us) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [dto.regionName, dto.parentRegion ?? null, dto.remark ?? '', dto.zhCn ?? '', dto.enUs ?? ''],
      );
      return { id: rows[0].id };
    } catch (err) {
      if (isUniqueViolation(err)) throw AppException.taken('regionName', 'regionNameTaken', { name: dto.regionName });
      if (isForeignKeyViolation(err)) throw AppException.field('parentRegion', 'parentRegionNotFound');
      throw err;
    }
  }

  /**
   * Changes the fields the caller sends; a field left out keeps its value (send parentRegion: null to move a region to
   * the top). Tree changes run one at a time, so two moves at once cannot make a loop.
   */
  async update(dto: UpdateRegionDto): Promise<void> {
    try {
      await this.db.transaction(async (tx) => {
        await tx.query(`SELECT pg_advisory_xact_lock($1)`, [ADVISORY_LOCK.regionTree]);
        const [current]: { parent_id: number | null }[] = await tx.query(`SELECT parent_id FROM region WHERE id = $1`, [dto.id]);
        if (!current) throw AppException.notFound();
        const parent = dto.parentRegion === undefined ? current.parent_id : dto.parentRegion;
        await this.assertParentExists(tx, parent);
        if (parent !== null) {
          // The new parent may not be the region itself or anything below it.
          const loop: unknown[] = await tx.query(
            `WITH RECURSIVE below AS (SELECT id FROM region WHERE id = $1 UNION ALL SELECT r.id FROM region r JOIN below b ON r.parent_id = b.id)
             SELECT 1 FROM below WHERE id = $2`,
            [dto.id, parent],
          );
          if (loop.length > 0) throw AppException.field('parentRegion', 'regionParentInvalid');
        }
        await tx.query(
          `UPDATE region SET region_name = $2, parent_id = $3, remark = coalesce($4, remark), zh_cn = coalesce($5, zh_cn),
                  en_us = coalesce($6, en_us), updated_at = now()
            WHERE id = $1`,
          [dto.id, dto.regionName, parent, dto.remark ?? null, dto.zhCn ?? null, dto.enUs ?? null],
        );
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw AppException.taken('regionName', 'regionNameTaken', { name: dto.regionName });
      throw err;
    }
  }

  async remove(id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock($1)`, [ADVISORY_LOCK.regionTree]);
      const [usage]: { children: number; devices: number }[] = await tx.query(
        `SELECT (SELECT count(*)::int FROM region WHERE parent_id = $1) AS children,
                (SELECT count(*)::int FROM device WHERE region_id = $1) AS devices`,
        [id],
      );
      if (usage.children > 0) throw AppException.conflict('regionHasChildren');
      if (usage.devices > 0) throw AppException.conflict('regionHasDevices', { count: usage.devices });
      try {
        const [, affected] = (await tx.query(`DELETE FROM region WHERE id = $1`, [id])) as [unknown, number];
        if (!affected) throw AppException.notFound();
      } catch (err) {
        // A device registered into the region between the count and the delete.
        if (isForeignKeyViolation(err)) throw AppException.conflict('regionHasDevices', { count: 1 });
        throw err;
      }
    });
  }

  private async assertParentExists(tx: EntityManager, parentId: number | null): Promise<void> {
    if (parentId === null) return;
    const rows: unknown[] = await tx.query(`SELECT 1 FROM region WHERE id = $1`, [parentId]);
    if (rows.length === 0) throw AppException.field('parentRegion', 'parentRegionNotFound');
  }
}
