import { DeviceType } from '@sc/contracts';
import { DEMO_DEVICE_REGIONS, addDemoDevices, loadDemoOnce, type DemoLoad } from './demo-once';

/** Demo alarm columns per region, on the regions' demo poles. */
export const DEMO_ALARM_COLUMNS_PER_REGION = 3;
export const DEMO_ALARM_COLUMN_COUNT = DEMO_DEVICE_REGIONS.length * DEMO_ALARM_COLUMNS_PER_REGION;

/**
 * Adds the demo alarm columns to a demo database, once, after its poles: ALARM-0001 onwards, three per region, each
 * on one of its region's demo poles, with the SIP account 9001 onwards. Columns whose code is taken are left as they are.
 */
export function loadDemoAlarmColumns(databaseUrl: string): Promise<DemoLoad> {
  return loadDemoOnce(databaseUrl, 'demo_alarm_columns', async (tx) => {
    const added = await addDemoDevices(tx, {
      type: DeviceType.OneKeyAlarm,
      prefix: 'ALARM-',
      regions: DEMO_DEVICE_REGIONS,
      perRegion: DEMO_ALARM_COLUMNS_PER_REGION,
      word: 'alarm column',
      poleShift: 2,
    });
    await tx.query(`INSERT INTO alarm_column (device_id, sip_account) SELECT id, (9000 + n)::text FROM unnest($1::int[], $2::int[]) AS t(id, n)`, [
      added.map((a) => a.id),
      added.map((a) => a.n),
    ]);
    return added.length;
  });
}

/** The demo's user group: every demo column's calls ring the demo administrator and editor. */
export const DEMO_ALARM_GROUP = {
  name: 'City duty desk',
  agents: [
    { username: 'admin', sip: '7001' },
    { username: 'editor', sip: '7002' },
  ],
} as const;

/**
 * Adds the demo user group once: no region (it takes the calls of every column no other group covers), the demo
 * administrator and editor as its agents, offline until they set themselves idle with the headset in the console's header.
 */
export function loadDemoAlarmGroup(databaseUrl: string): Promise<DemoLoad> {
  return loadDemoOnce(databaseUrl, 'demo_alarm_group', async (tx) => {
    const [group]: { id: number }[] = await tx.query(
      `INSERT INTO alarm_user_group (name, remark) VALUES ($1, 'Demo: every alarm column') ON CONFLICT DO NOTHING RETURNING id`,
      [DEMO_ALARM_GROUP.name],
    );
    if (!group) return 0;
    const [, count] = (await tx.query(
      `INSERT INTO alarm_agent (user_id, group_id, sip_account)
       SELECT u.id, $1, a.sip FROM unnest($2::text[], $3::text[]) AS a(username, sip) JOIN sys_user u ON lower(u.username) = a.username
       ON CONFLICT DO NOTHING`,
      [group.id, DEMO_ALARM_GROUP.agents.map((a) => a.username), DEMO_ALARM_GROUP.agents.map((a) => a.sip)],
    )) as [unknown, number];
    return count;
  });
}
