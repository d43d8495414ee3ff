import { DataSource } from 'typeorm';
import { Role } from '@sc/contracts';
import { dataSourceOptions } from '@sc/database';
import { hashPassword } from '../auth/password.service';

export const DEMO_PASSWORD = 'SmartCity@2026';
export const DEMO_USERS = [
  { username: 'admin', group: 'Administrators', introduction: 'Platform administrator' },
  { username: 'editor', group: 'Editors', introduction: 'Operations editor' },
  { username: 'visitor', group: 'Visitors', introduction: 'Read-only visitor' },
] as const;

const GROUPS = [
  { name: 'Administrators', isAdmin: true, menu: [] as string[], remark: 'Full access' },
  { name: 'Editors', isAdmin: false, menu: ['Home', Role.Editor], remark: 'Day-to-day operation of devices' },
  { name: 'Visitors', isAdmin: false, menu: ['Home', Role.Visit], remark: 'Read-only access' },
];

interface DemoRegion {
  name: string;
  zh: string;
  children?: DemoRegion[];
}

const REGIONS: DemoRegion[] = [
  {
    name: 'Shenzhen',
    zh: '深圳市',
    children: [
      {
        name: 'Futian District',
        zh: '福田区',
        children: [
          { name: 'Huaqiangbei Subdistrict', zh: '华强北街道' },
          { name: 'Lianhua Subdistrict', zh: '莲花街道' },
        ],
      },
      {
        name: 'Nanshan District',
        zh: '南山区',
        children: [
          { name: 'Yuehai Subdistrict', zh: '粤海街道' },
          { name: 'Shekou Subdistrict', zh: '蛇口街道' },
        ],
      },
    ],
  },
  {
    name: 'Hangzhou',
    zh: '杭州市',
    children: [
      {
        name: 'Xihu District',
        zh: '西湖区',
        children: [
          { name: 'Beishan Subdistrict', zh: '北山街道' },
          { name: 'Lingyin Subdistrict', zh: '灵隐街道' },
        ],
      },
      {
        name: 'Shangcheng District',
        zh: '上城区',
        children: [
          { name: 'Hubin Subdistrict', zh: '湖滨街道' },
          { name: 'Qingbo Subdistrict', zh: '清波街道' },
        ],
      },
    ],
  },
];

export type DemoOutcome = 'loaded' | 'already-loaded' | 'skipped-real-data';

/**
 * Loads the demo users and region tree into an empty database. A database that already holds users
 * without the demo marker has real data and is left untouched.
 */
export async function loadDemoData(databaseUrl: string): Promise<DemoOutcome> {
  const db = new DataSource(dataSourceOptions(databaseUrl));
  await db.initialize();
  try {
    return await db.transaction(async (tx) => {
      await tx.query(`LOCK TABLE sys_user IN EXCLUSIVE MODE`);
      const marker: unknown[] = await tx.query(`SELECT 1 FROM app_setting WHERE key = 'demo_data'`);
      if (marker.length > 0) return 'already-loaded';
      const [{ n }]: { n: number }[] = await tx.query(`SELECT count(*)::int AS n FROM sys_user`);
      if (n > 0) return 'skipped-real-data';

      const groupIds = new Map<string, number>();
      for (const g of GROUPS) {
        const [row]: { id: number }[] = await tx.query(
          `INSERT INTO sys_group (group_name, is_admin, permission_menu, remark) VALUES ($1, $2, $3, $4) RETURNING id`,
          [g.name, g.isAdmin, g.menu, g.remark],
        );
        groupIds.set(g.name, row.id);
      }
      const hash = await hashPassword(DEMO_PASSWORD);
      for (const u of DEMO_USERS) {
        await tx.query(`INSERT INTO sys_user (username, password_hash, group_id, introduction) VALUES ($1, $2, $3, $4)`, [
          u.username,
          hash,
          groupIds.get(u.group),
          u.introduction,
        ]);
      }
      const insert = async (region: DemoRegion, parentId: number | null, sort: number): Promise<void> => {
        const [row]: { id: number }[] = await tx.query(
          `INSERT INTO region (region_name, parent_id, zh_cn, en_us, sort) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
          [region.name, parentId, region.zh, region.name, sort],
        );
        for (const [i, child] of (region.children ?? []).entries()) await insert(child, row.id, i);
      };
      for (const [i, region] of REGIONS.entries()) await insert(region, null, i);
      await tx.query(`INSERT INTO app_setting (key, value) VALUES ('demo_data', $1)`, [JSON.stringify({ loadedAt: new Date().toISOString() })]);
      return 'loaded';
    });
  } finally {
    await db.destroy();
  }
}
