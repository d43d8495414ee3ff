import type { EntityManager } from 'typeorm';
import { DeviceType, GATEWAY_NAME_MAX } from '@sc/contracts';
import { Where, likeContains } from '../common/sql';
import type { ExportQuery } from '../exports/list-export';
import { byKey, columnOf, deviceGroupOf, type ExistingRecord, type ImportTable, type RowToWrite, type RowValues } from './import-table';

const loopKey = (values: RowValues) => `${values.gatewayId ?? ''}:${values.code ?? ''}`;

/**
 * Loops of lamp gateways (POST :8888/api/light/loopImport): a loop's code is unique within its gateway, so rows match
 * on gateway and code. The gateway must exist (import the gateways first). The chosen group is a group of single lamps.
 */
export const LOOP_IMPORT: ImportTable = {
  kind: 'loop',
  group: deviceGroupOf(DeviceType.SingleLamp),
  codeColumn: 'code',
  keyOf: loopKey,
  columns: [
    { key: 'gatewayId', kind: 'gateway', required: true, example: 'LGW-01' },
    { key: 'code', kind: 'code', required: true, example: 'L1' },
    { key: 'name', kind: 'text', required: true, max: GATEWAY_NAME_MAX, example: 'North side' },
    { key: 'remark', kind: 'text', max: 255, example: '' },
  ],

  async load(tx: EntityManager, keys: string[]): Promise<Map<string, ExistingRecord>> {
    const pairs = keys.map((k) => k.split(':')).filter(([gateway]) => /^\d+$/.test(gateway));
    const rows: { id: number; groupId: number | null; gatewayId: number; code: string; name: string; remark: string }[] = await tx.query(
      `SELECT l.id, l.group_id AS "groupId", l.gateway_id AS "gatewayId", l.code, l.name, l.remark
         FROM lamp_loop l JOIN unnest($1::int[], $2::text[]) AS k(gateway_id, code) ON l.gateway_id = k.gateway_id AND l.code = k.code`,
      [pairs.map(([gateway]) => Number(gateway)), pairs.map(([, ...code]) => code.join(':'))],
    );
    return byKey(rows, loopKey);
  },

  async insert(tx: EntityManager, rows: RowToWrite[], groupId: number): Promise<void> {
    await tx.query(
      `INSERT INTO lamp_loop (gateway_id, code, name, remark, group_id)
       SELECT gateway_id, code, name, remark, $5 FROM unnest($1::int[], $2::text[], $3::text[], $4::text[]) AS t(gateway_id, code, name, remark)`,
      [...(['gatewayId', 'code', 'name', 'remark'] as const).map((k) => columnOf(rows, k)), groupId],
    );
  },

  async update(tx: EntityManager, rows: RowToWrite[], groupId: number): Promise<void> {
    await tx.query(
      `UPDATE lamp_loop l SET name = i.name, remark = i.remark, group_id = $4, updated_at = now()
         FROM unnest($1::text[], $2::text[], $3::int[]) AS i(name, remark, id)
        WHERE l.id = i.id`,
      [columnOf(rows, 'name'), columnOf(rows, 'remark'), rows.map((r) => r.id), groupId],
    );
  },

  exportQuery(f: Record<string, unknown>): ExportQuery {
    const where = new Where()
      .addIf(f.gatewayId, `g.code = ?`)
      .addIf(f.name, `concat_ws(chr(1), lower(l.name), lower(l.code)) LIKE ?`, typeof f.name === 'string' ? likeContains(f.name) : undefined);
    return {
      select: `g.code AS "gatewayId", l.code, l.name, l.remark`,
      from: `lamp_loop l JOIN lamp_gateway g ON g.id = l.gateway_id`,
      where,
      orderBy: 'g.code, l.code',
      id: 'l.id',
    };
  },
};
