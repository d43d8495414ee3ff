// Load test of POST /api/light/lampPage against the built gateway, with a fleet of street lamps in a database of its own.
//
//   npx nest build gateway && npm run bench:lamp-page            # LAMPS=100000 by default
//
// It creates the database sc_bench_lamps_<hex>, migrates and seeds it with the built gateway, removes the demo lamps,
// loads LAMPS lamps (a region tree of cities, districts, subdistricts and communities; streets of lamps named like
// real street lamps; gateways, loops and groups; statuses mostly normal with some offline and failed; telemetry)
// with SQL, starts the gateway on free loopback ports with a Redis prefix of its own, and generates a rotation of
// BODIES request bodies, distinct wherever the kind allows (name fragments of every selectivity, regions at every depth, statuses, network statuses, gateways,
// loops, groups and their combinations, pages and page sizes 10/20/50). Before any load it compares the gateway's
// answer to a sample of them with independent SQL (total, ids, every field of the rows); then it warms up, measures
// each kind of body alone on one connection, runs autocannon (the measured run at BENCH_CONNECTIONS, then the
// overload runs), prints the results and removes everything it made. Each connection sends its own slice of the
// bodies, so no body is sent again before all the others have been. Nothing caches page results: every request
// counts and reads. It exits 1 when a target is missed, 2 when it could not run.
// Only loopback addresses are ever contacted. See docs/benchmarks.md.
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { clearInterval, setInterval } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLK_TCK, log, processMemory, processTicks, withClient } from './support/platform.mjs';
import * as page from './support/page-load.mjs';

const env = process.env;
const list = (value, fallback) => (value ?? fallback).split(',').filter(Boolean).map(Number);
// BENCH_CONNECTIONS, BENCH_WARMUP_SECONDS, BENCH_DURATION_SECONDS, BENCH_TARGET_RPS, BENCH_TARGET_P99_MS: see pageSettings in support/page-load.mjs.
const settings = {
  lamps: Number(env.LAMPS ?? 100_000),
  bodies: Number(env.BODIES ?? 20_000),
  checked: Number(env.CHECK ?? 400),
  probe: Number(env.PROBE ?? 40),
  overload: list(env.OVERLOAD_CONNECTIONS, '200,1000'),
  overloadSeconds: Number(env.OVERLOAD_SECONDS ?? 15),
  // Lamp rows rewritten per second during the load runs, as the intake does with telemetry (0: none).
  writeRate: Number(env.WRITE_RATE ?? 0),
  seed: Number(env.SEED ?? 2026),
  ...page.pageSettings,
};
const RUN = randomBytes(4).toString('hex');
const DB_NAME = `sc_bench_lamps_${RUN}`;
const REDIS_PREFIX = `bench:lamps:${RUN}:`;
const PATH = '/api/light/lampPage';

// ---------------------------------------------------------------------------------------------------------------
// A seeded generator: the same SEED gives the same fleet and the same bodies.

function generator(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (items) => items[Math.floor(next() * items.length)];
  /** [[weight, value], ...] */
  const weighted = (pairs) => {
    let r = next() * pairs.reduce((s, [w]) => s + w, 0);
    for (const [w, v] of pairs) if ((r -= w) < 0) return v;
    return pairs[pairs.length - 1][1];
  };
  const shuffle = (items) => {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  };
  return { next, int, pick, weighted, shuffle };
}

// ---------------------------------------------------------------------------------------------------------------
// The fleet: cities, districts, subdistricts and some communities (real place names of the Pearl River Delta);
// streets of lamps in each leaf region; a gateway per stretch of street with its loops; groups by kind of road.

const CITIES = [
  {
    name: 'Guangzhou',
    code: 'GZ',
    districts: {
      'Tianhe District': ['Shipai', 'Linhe', 'Tianhe South', 'Wushan', 'Yuancun', 'Zhujiang New Town', 'Tangxia', 'Huangcun'],
      'Yuexiu District': ['Beijing Road', 'Dongshan', 'Huale', 'Liurong', 'Guangta', 'Dadong'],
      'Haizhu District': ['Binjiang', 'Chigang', 'Nanzhou', 'Pazhou', 'Jiangnanzhong', 'Guanzhou'],
      'Baiyun District': ['Jingtai', 'Sanyuanli', 'Tonghe', 'Xinshi', 'Junhe', 'Renhe'],
      'Panyu District': ['Shiqiao', 'Dashi', 'Nancun', 'Shawan', 'Luopu', 'Zhongcun'],
      'Huangpu District': ['Dasha', 'Huangpu', 'Lianhe', 'Luogang', 'Yonghe'],
    },
  },
  {
    name: 'Foshan',
    code: 'FS',
    districts: {
      'Chancheng District': ['Zumiao', 'Shiwan', 'Zhangcha', 'Nanzhuang'],
      'Nanhai District': ['Guicheng', 'Lishui', 'Dali', 'Shishan', 'Jiujiang', 'Xiqiao'],
      'Shunde District': ['Daliang', 'Ronggui', 'Beijiao', 'Lecong', 'Lunjiao', 'Chencun'],
    },
  },
  {
    name: 'Dongguan',
    code: 'DG',
    districts: {
      'Central Dongguan': ['Guancheng', 'Dongcheng', 'Nancheng', 'Wanjiang'],
      'Songshan Lake Area': ['Dalang', 'Dalingshan', 'Liaobu', 'Huangjiang'],
      'Binhai Bay Area': ['Humen', "Chang'an", 'Shatian', 'Houjie'],
    },
  },
  {
    name: 'Zhuhai',
    code: 'ZH',
    districts: {
      'Xiangzhou District': ['Gongbei', 'Jida', 'Xiangwan', 'Qianshan', 'Cuixiang', 'Meihua'],
      'Jinwan District': ['Sanzao', 'Hongqi', 'Pingsha'],
      'Doumen District': ['Jing’an', 'Baijiao', 'Qianwu'],
    },
  },
];
const COMMUNITY_NAMES = [
  'Liede',
  'Xiancun',
  'Tancun',
  'Shipai East',
  'Huajing',
  'Qiandeng Lake',
  'Pingzhou',
  'Nanyu',
  'Yayuan',
  'Binhu',
  'Shuanggang',
  'Xinzhou',
  'Huanan Garden',
  'Jinxiu',
  'Lijiang',
  'Dongpu',
  'Chebei',
  'Longkou',
  'Kecun',
  'Fenghuang',
];
const STREET_ROOTS = [
  'Zhongshan',
  'Jiefang',
  'Renmin',
  'Huangpu',
  'Tianhe',
  'Zhujiang',
  'Xingang',
  'Dongfeng',
  'Huanshi',
  'Binjiang',
  'Yuehua',
  'Jianshe',
  'Xinhua',
  'Wenming',
  'Heping',
  'Qingnian',
  'Gongye',
  'Huaxia',
  'Jinsui',
  'Linjiang',
  'Huacheng',
  'Kexue',
  'Chuangye',
  'Nanhai',
  'Jihua',
  'Fenjiang',
  'Lingnan',
  'Chaoyang',
  'Yingbin',
  'Shuguang',
  'Guangming',
  'Xianlie',
  'Baiyun',
  'Longkou',
  'Tiyu',
  'Shipai',
  'Huajing',
  'Keyun',
  'Wushan',
  'Yuancun',
  'Pazhou',
  'Chigang',
  'Haizhu',
  'Jingtai',
  'Sanyuanli',
  'Tonghe',
  'Shiqiao',
  'Dashi',
  'Nancun',
  'Shawan',
  'Xiangjiang',
  'Songshan',
  'Humen',
  'Changan',
  'Gongbei',
  'Jida',
  'Qinglv',
  'Meihua',
  'Lianhua',
  'Fuhua',
  'Yuehai',
  'Baotai',
  'Xin’an',
  'Fuyong',
  'Songgang',
  'Zumiao',
  'Guicheng',
  'Ronggui',
  'Daliang',
  'Lecong',
  'Qianshan',
  'Jinfeng',
  'Xiangzhou',
  'Cuiwei',
  'Hongshan',
];
/** Kinds of road: suffixes, lamps per street, the group they are managed in. */
const ROADS = [
  { suffixes: ['Avenue', 'Boulevard', 'Avenue East', 'Avenue West'], lamps: [150, 480], group: 'Main roads', weight: 18 },
  { suffixes: ['Expressway', 'Ring Road'], lamps: [200, 600], group: 'Expressways', weight: 5 },
  {
    suffixes: ['Road', 'East Road', 'West Road', 'North Road', 'South Road', 'Middle Road', '1st Road', '2nd Road'],
    lamps: [50, 260],
    group: 'Secondary roads',
    weight: 45,
  },
  { suffixes: ['Street', 'Lane', '3rd Street', 'Back Street', 'Alley'], lamps: [12, 90], group: 'Residential streets', weight: 28 },
  { suffixes: ['Park Path', 'Riverside Walk'], lamps: [20, 120], group: 'Parks and riversides', weight: 4 },
];

async function loadFleet(client, rnd) {
  // The demo's strategies: a share of the fleet holds one, with the schedule the demo compiled for its lamps.
  const held = (
    await client.query(
      `SELECT DISTINCT ON (strategy_id) strategy_id AS "strategyId", mode, mode_data AS "modeData", job_list AS "jobList"
         FROM lamp WHERE strategy_id IS NOT NULL ORDER BY strategy_id, device_id`,
    )
  ).rows;
  // Only this run's lamps: the demo's go (with their dispatches, energy and alarms).
  await client.query(`DELETE FROM device WHERE type = 1`);

  // Regions.
  const regions = [];
  const insertRegion = async (name, parentId, depth, sort) => {
    const {
      rows: [row],
    } = await client.query(`INSERT INTO region (region_name, parent_id, en_us, sort, remark) VALUES ($1, $2, $1, $3, 'benchmark') RETURNING id`, [
      name,
      parentId,
      sort,
    ]);
    const region = { id: row.id, name, parentId, depth, children: [] };
    regions.push(region);
    return region;
  };
  const leaves = [];
  for (const [ci, city] of CITIES.entries()) {
    const c = await insertRegion(city.name, null, 1, 10 + ci);
    c.city = city;
    for (const [di, [districtName, subdistricts]] of Object.entries(city.districts).entries()) {
      const d = await insertRegion(districtName, c.id, 2, di);
      c.children.push(d);
      for (const [si, sub] of subdistricts.entries()) {
        const s = await insertRegion(`${sub} Subdistrict`, d.id, 3, si);
        d.children.push(s);
        // About a third of the subdistricts are managed community by community.
        if (rnd.next() < 0.33) {
          const names = rnd.shuffle([...COMMUNITY_NAMES]).slice(0, rnd.int(2, 4));
          for (const [ki, name] of names.entries()) {
            const k = await insertRegion(`${name} Community`, s.id, 4, ki);
            s.children.push(k);
            leaves.push({ region: k, city });
          }
        } else {
          leaves.push({ region: s, city });
        }
      }
    }
  }
  const byId = new Map(regions.map((r) => [r.id, r]));
  for (const r of regions) {
    r.ancestors = [];
    for (let p = r; p; p = p.parentId ? byId.get(p.parentId) : null) r.ancestors.push(p.id);
  }

  // Groups of single lamps (type 1).
  const groupNames = [...new Set(ROADS.map((r) => r.group))];
  const groupIds = new Map();
  for (const city of CITIES) {
    for (const g of groupNames) {
      const {
        rows: [row],
      } = await client.query(`INSERT INTO device_group (type, name) VALUES (1, $1) RETURNING id`, [`${city.name} ${g.toLowerCase()}`]);
      groupIds.set(`${city.name}/${g}`, row.id);
    }
  }
  const {
    rows: [pilot],
  } = await client.query(`INSERT INTO device_group (type, name) VALUES (1, 'LED retrofit pilot') RETURNING id`);

  // Streets, their lamps, gateways and loops.
  const weights = leaves.map(() => 0.3 + rnd.next() * 1.7);
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const lamps = [];
  const gateways = [];
  const usedStreets = new Map(CITIES.map((c) => [c.name, new Set()]));
  let gatewaySeq = 0;
  for (const [li, leaf] of leaves.entries()) {
    let remaining = Math.max(1, Math.round((settings.lamps * weights[li]) / weightSum));
    const region = leaf.region;
    const used = usedStreets.get(leaf.city.name);
    while (remaining > 0) {
      const road = rnd.weighted(ROADS.map((r) => [r.weight, r]));
      let street;
      for (let tries = 0; tries < 50 && (!street || used.has(street)); tries++) street = `${rnd.pick(STREET_ROOTS)} ${rnd.pick(road.suffixes)}`;
      if (used.has(street)) street = `${street} ${used.size}`;
      used.add(street);
      const count = Math.min(remaining, rnd.int(road.lamps[0], road.lamps[1]));
      remaining -= count;
      const start = [22.2 + rnd.next() * 1, 113.0 + rnd.next() * 1.2];
      const step = [(rnd.next() - 0.5) * 0.0006, (rnd.next() - 0.5) * 0.0006];
      const group = rnd.next() < 0.08 ? null : rnd.next() < 0.03 ? pilot.id : groupIds.get(`${leaf.city.name}/${road.group}`);
      // A gateway per 60 to 150 lamps along the street, 2 to 4 loops each.
      let n = 0;
      while (n < count) {
        const size = Math.min(count - n, rnd.int(60, 150));
        gatewaySeq += 1;
        const gateway = {
          code: `LGW-${leaf.city.code}${String(gatewaySeq).padStart(5, '0')}`,
          name: `${street} concentrator ${Math.floor(n / 100) + 1}`,
          regionId: region.id,
          offline: rnd.next() < 0.015,
          loops: [],
          lamps: [],
        };
        const loops = rnd.int(2, 4);
        for (let k = 1; k <= loops; k++) gateway.loops.push({ code: `L${k}`, name: `${street} loop ${k}`, id: null });
        for (let i = 0; i < size; i++) {
          n += 1;
          const lamp = {
            code: `SL-${leaf.city.code}-${String(lamps.length + 1).padStart(7, '0')}`,
            name: `${street} ${n}`,
            regionId: rnd.next() < 0.002 ? null : region.id,
            groupId: group,
            gateway,
            loop: rnd.next() < 0.03 ? null : gateway.loops[Math.min(loops - 1, Math.floor((i * loops) / size))],
            latitude: +(start[0] + step[0] * n).toFixed(6),
            longitude: +(start[1] + step[1] * n).toFixed(6),
            addr: `${street} No. ${n}, ${region.name}`,
            street,
          };
          lamps.push(lamp);
          gateway.lamps.push(lamp);
        }
        gateways.push(gateway);
      }
    }
  }
  // A few lamps never bound to a gateway (spares, lamps waiting for commissioning).
  for (const lamp of lamps) if (rnd.next() < 0.01) Object.assign(lamp, { gateway: null, loop: null });

  // States: lamps behind an offline gateway are offline; some others too; some failed a command; some have faults.
  const now = Date.now();
  for (const lamp of lamps) {
    const offline = lamp.gateway?.offline || !lamp.gateway || rnd.next() < 0.025;
    lamp.networkStatus = offline ? 0 : 1;
    lamp.status = offline
      ? -5
      : rnd.weighted([
          [90.5, 0],
          [3.5, -4],
          [2.5, -3],
          [0.3, -1],
          [0.2, -2],
        ]);
    const on = rnd.next() < 0.7;
    lamp.switchState = on ? 1 : 0;
    lamp.bri = on ? rnd.pick([100, 100, 80, 60, 40]) : 0;
    const reported = offline ? now - rnd.int(3_600_000, 20 * 86_400_000) : now - rnd.int(0, 10_000);
    lamp.reportedAt = !lamp.gateway && rnd.next() < 0.5 ? null : new Date(reported).toISOString();
    lamp.telemetry = lamp.reportedAt
      ? JSON.stringify({
          ts: lamp.reportedAt,
          voltage: +(219 + rnd.next() * 12).toFixed(1),
          current: on ? +((0.45 * lamp.bri) / 100 + rnd.next() * 0.02).toFixed(3) : 0.004,
          power: on ? +((98 * lamp.bri) / 100 + rnd.next() * 4).toFixed(1) : 0.8,
          powerFactor: on ? +(0.9 + rnd.next() * 0.09).toFixed(2) : 0.5,
          signal: -rnd.int(55, 98),
        })
      : null;
    lamp.faults = rnd.next() < 0.03 ? rnd.pick(['{1}', '{4}', '{5}', '{4,7}', '{2}', '{8}']) : '{}';
    lamp.hardwareVersion = rnd.pick(['HW-2.1', 'HW-2.1', 'HW-3.0', 'HW-1.4']);
    lamp.softwareVersion = rnd.pick(['4.2.7', '4.2.7', '4.3.1', '3.9.12']);
    lamp.totalIlluminationHours = lamp.reportedAt ? rnd.int(50, 26_000) : null;
    lamp.lampControlId = lamp.gateway ? `LC-${String(rnd.int(1, 9999)).padStart(4, '0')}` : '';
    lamp.mac = `02:${[0, 0, 0, 0, 0].map(() => rnd.int(0, 255).toString(16).padStart(2, '0')).join(':')}`;
    lamp.level = rnd.next() < 0.3 ? rnd.pick([60, 80, 100]) : null;
    lamp.color = rnd.next() < 0.05 ? rnd.pick(['#ffd27f', '#fff4e0']) : '';
    lamp.schedule = held.length && rnd.next() < 0.6 ? rnd.pick(held) : null;
  }

  // Gateways and loops.
  await client.query(
    `INSERT INTO lamp_gateway (code, name, region_id, network_status, hardware_version, software_version, reported_at)
     SELECT code, name, region_id, CASE WHEN offline THEN 0 ELSE 1 END, 'GW-5.2', '5.2.3', now() - interval '5 seconds'
       FROM unnest($1::text[], $2::text[], $3::int[], $4::boolean[]) AS t(code, name, region_id, offline)`,
    [gateways.map((g) => g.code), gateways.map((g) => g.name), gateways.map((g) => g.regionId), gateways.map((g) => g.offline)],
  );
  const loopRows = gateways.flatMap((g) => g.loops.map((l) => [g.code, l.code, l.name]));
  const { rows: loopIds } = await client.query(
    `INSERT INTO lamp_loop (gateway_id, code, name)
     SELECT gw.id, t.code, t.name FROM unnest($1::text[], $2::text[], $3::text[]) AS t(gateway, code, name) JOIN lamp_gateway gw ON gw.code = t.gateway
     RETURNING id, (SELECT code FROM lamp_gateway WHERE id = gateway_id) AS gateway, code`,
    [loopRows.map((r) => r[0]), loopRows.map((r) => r[1]), loopRows.map((r) => r[2])],
  );
  const loopId = new Map(loopIds.map((r) => [`${r.gateway}/${r.code}`, r.id]));
  for (const g of gateways) for (const l of g.loops) l.id = loopId.get(`${g.code}/${l.code}`);

  // Lamps in the order they were commissioned: a gateway's stretch at a time, in no particular order of place, and
  // 8 % of them added later one by one (replacements, extensions).
  const batches = rnd.shuffle(gateways.map((g) => g.lamps));
  const order = [];
  const late = [];
  for (const batch of batches) for (const lamp of batch) if (lamp.gateway) (rnd.next() < 0.08 ? late : order).push(lamp);
  order.push(...lamps.filter((l) => !l.gateway), ...rnd.shuffle(late));
  const CHUNK = 5000;
  for (let i = 0; i < order.length; i += CHUNK) {
    const chunk = order.slice(i, i + CHUNK);
    const col = (f) => chunk.map(f);
    await client.query(
      `WITH t AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::float8[], $6::float8[]) WITH ORDINALITY
                AS t(code, name, region_id, group_id, latitude, longitude, n)),
       d AS (INSERT INTO device (type, code, name, region_id, group_id, latitude, longitude)
             SELECT 1, code, name, region_id, group_id, latitude, longitude FROM t ORDER BY n RETURNING id, code)
       INSERT INTO lamp (device_id, gateway_id, lamp_control_id, addr, mac, switch_state, bri, status, network_status, telemetry,
                         faults, hardware_version, software_version, total_illumination_hours, reported_at, loop_id, level, color,
                         strategy_id, mode, mode_data, job_list)
       SELECT d.id, x.gateway_id, x.lamp_control_id, x.addr, x.mac, x.switch_state, x.bri, x.status, x.network_status, x.telemetry,
              x.faults::smallint[], x.hardware_version, x.software_version, x.hours, x.reported_at, x.loop_id, x.level, x.color,
              x.strategy_id, x.mode, x.mode_data, x.job_list
         FROM unnest($7::text[], $8::text[], $9::text[], $10::text[], $11::smallint[], $12::smallint[], $13::smallint[], $14::smallint[],
                     $15::jsonb[], $16::text[], $17::text[], $18::text[], $19::int[], $20::timestamptz[], $21::int[], $22::smallint[],
                     $23::text[], $24::int[], $25::smallint[], $26::jsonb[], $27::jsonb[], $28::text[])
              AS x(gateway_id, lamp_control_id, addr, mac, switch_state, bri, status, network_status, telemetry, faults, hardware_version,
                   software_version, hours, reported_at, loop_id, level, color, strategy_id, mode, mode_data, job_list, code)
         JOIN d ON d.code = x.code`,
      [
        col((l) => l.code),
        col((l) => l.name),
        col((l) => l.regionId),
        col((l) => l.groupId),
        col((l) => l.latitude),
        col((l) => l.longitude),
        col((l) => l.gateway?.code ?? ''),
        col((l) => l.lampControlId),
        col((l) => l.addr),
        col((l) => l.mac),
        col((l) => l.switchState),
        col((l) => l.bri),
        col((l) => l.status),
        col((l) => l.networkStatus),
        col((l) => l.telemetry),
        col((l) => l.faults),
        col((l) => l.hardwareVersion),
        col((l) => l.softwareVersion),
        col((l) => l.totalIlluminationHours),
        col((l) => l.reportedAt),
        col((l) => l.loop?.id ?? null),
        col((l) => l.level),
        col((l) => l.color),
        col((l) => l.schedule?.strategyId ?? null),
        col((l) => l.schedule?.mode ?? null),
        col((l) => (l.schedule ? JSON.stringify(l.schedule.modeData) : null)),
        col((l) => (l.schedule ? JSON.stringify(l.schedule.jobList) : null)),
        col((l) => l.code),
      ],
    );
  }
  // What autovacuum would have done on tables in use for a while.
  await client.query(`VACUUM (ANALYZE)`);
  for (const lamp of lamps) {
    lamp.lowerName = lamp.name.toLowerCase();
    lamp.ancestors = lamp.regionId ? byId.get(lamp.regionId).ancestors : [];
  }
  const groups = [...groupIds.values(), pilot.id];
  return { regions, lamps, gateways, groups };
}

// ---------------------------------------------------------------------------------------------------------------
// Request bodies: what operators do on the lamp list. Each kind is one way of using the page.

const KINDS = {
  open: { weight: 14, make: () => ({}) },
  street: { weight: 8, make: (f, r) => ({ lampName: caseOf(r, r.pick(f.lamps).street) }) },
  'street word': { weight: 5, make: (f, r) => ({ lampName: r.pick(f.lamps).street.split(' ')[0].toLowerCase() }) },
  'street and number': { weight: 6, make: (f, r) => ({ lampName: caseOf(r, r.pick(f.lamps).name) }) },
  number: {
    weight: 2,
    make: (f, r) => ({
      lampName: String(
        r.weighted([
          [3, r.int(1, 9)],
          [5, r.int(10, 99)],
          [4, r.int(100, 480)],
        ]),
      ),
    }),
  },
  '2 letters': { weight: 2, make: (f, r) => ({ lampName: fragment(r, r.pick(f.lamps).street, 2) }) },
  '3 to 5 letters': { weight: 2, make: (f, r) => ({ lampName: fragment(r, r.pick(f.lamps).street, r.int(3, 5)) }) },
  'no match': { weight: 1, make: (f, r) => ({ lampName: Array.from({ length: 5 }, () => r.pick([...'qxzjvwk'])).join('') }) },
  region: { weight: 14, make: (f, r) => ({ regionId: regionAt(f, r) }) },
  status: { weight: 9, make: (f, r) => ({ status: statusOf(r) }) },
  'network status': {
    weight: 5,
    make: (f, r) => ({
      networkStatus: r.weighted([
        [7, 0],
        [3, 1],
      ]),
    }),
  },
  gateway: { weight: 8, make: (f, r) => ({ gatewayId: r.next() < 0.05 ? `LGW-XX${r.int(10000, 99999)}` : r.pick(f.gateways).code }) },
  loop: { weight: 3, make: (f, r) => ({ loopId: r.pick(r.pick(f.gateways).loops).id }) },
  group: { weight: 4, make: (f, r) => ({ groupId: r.pick(f.groups) }) },
  'region + status': { weight: 7, make: (f, r) => ({ regionId: regionAt(f, r), status: statusOf(r) }) },
  'region + name': { weight: 3, make: (f, r) => ({ regionId: regionAt(f, r), lampName: r.pick(f.lamps).street.split(' ')[0] }) },
  'status + name': { weight: 2, make: (f, r) => ({ status: statusOf(r), lampName: r.pick(f.lamps).street }) },
  'gateway + status': { weight: 2, make: (f, r) => ({ gatewayId: r.pick(f.gateways).code, status: statusOf(r) }) },
  'group + network': {
    weight: 2,
    make: (f, r) => ({
      groupId: r.pick(f.groups),
      networkStatus: r.weighted([
        [8, 0],
        [2, 1],
      ]),
    }),
  },
  'region + network + name': {
    weight: 1,
    make: (f, r) => ({ regionId: regionAt(f, r), networkStatus: 0, lampName: fragment(r, r.pick(f.lamps).street, r.int(2, 4)) }),
  },
};

function caseOf(r, text) {
  return r.weighted([
    [5, text],
    [4, text.toLowerCase()],
    [1, text.toUpperCase()],
  ]);
}

function fragment(r, text, length) {
  const letters = text.replace(/[^A-Za-z]/g, '').toLowerCase();
  const at = r.int(0, Math.max(0, letters.length - length));
  return letters.slice(at, at + length);
}

function regionAt(f, r) {
  const depth = r.weighted([
    [15, 1],
    [35, 2],
    [35, 3],
    [15, 4],
  ]);
  const candidates = f.regions.filter((g) => g.depth === depth);
  return r.pick(candidates.length ? candidates : f.regions).id;
}

function statusOf(r) {
  return r.weighted([
    [35, -5],
    [20, -3],
    [15, 0],
    [15, -4],
    [8, -1],
    [7, -2],
  ]);
}

function matches(lamp, body) {
  if (body.lampName && !lamp.lowerName.includes(body.lampName.toLowerCase())) return false;
  if (body.regionId && !lamp.ancestors.includes(body.regionId)) return false;
  if (body.status !== undefined && lamp.status !== body.status) return false;
  if (body.networkStatus !== undefined && lamp.networkStatus !== body.networkStatus) return false;
  if (body.gatewayId && (lamp.gateway?.code ?? '') !== body.gatewayId) return false;
  if (body.loopId && lamp.loop?.id !== body.loopId) return false;
  if (body.groupId && lamp.groupId !== body.groupId) return false;
  return true;
}

/**
 * A rotation of `count` bodies: each kind its weight's share, page sizes 10/20/50, mostly the first pages, some
 * further on, some anywhere up to the last page. Bodies are distinct wherever the kind allows; a kind with few
 * possible bodies (opening the list: a page number and a size) repeats its own, as operators do, so the mix
 * keeps its weights. Nothing is cached, so a repeat costs what the first one did.
 */
function makeBodies(fleet, count, seed) {
  const r = generator(seed);
  const sample = fleet.lamps.filter(() => r.next() < 0.05);
  const scale = fleet.lamps.length / Math.max(1, sample.length);
  const weightSum = Object.values(KINDS).reduce((sum, k) => sum + k.weight, 0);
  const bodies = [];
  let distinct = 0;
  for (const [kind, spec] of Object.entries(KINDS)) {
    const quota = Math.max(1, Math.round((count * spec.weight) / weightSum));
    const seen = new Set();
    let n = 0;
    for (let attempts = 0; n < quota && attempts < quota * 20; attempts++) {
      const filters = spec.make(fleet, r);
      if (filters.lampName !== undefined && filters.lampName.trim() === '') continue;
      const pageSize = r.weighted([
        [2, 10],
        [6, 20],
        [2, 50],
      ]);
      let pageNum = r.weighted([
        [55, 1],
        [25, r.int(2, 5)],
        [12, -r.int(6, 20)],
        [8, 0],
      ]);
      if (pageNum <= 0) {
        const estimate = Math.round(sample.filter((l) => matches(l, filters)).length * scale);
        const pages = Math.max(1, Math.ceil(estimate / pageSize));
        pageNum = pageNum === 0 ? r.int(1, pages) : Math.min(-pageNum, pages);
      }
      const body = { pageNum, pageSize, ...filters };
      const key = JSON.stringify(body);
      // A kind whose bodies run out (opening the list) repeats its own, with the pages' own distribution.
      if (seen.has(key) && attempts < quota * 3) continue;
      seen.add(key);
      bodies.push({ kind, body });
      n += 1;
    }
    distinct += seen.size;
  }
  const rotation = r.shuffle(bodies);
  rotation.distinct = distinct;
  return rotation;
}

// ---------------------------------------------------------------------------------------------------------------
// What the page must answer, computed independently of the gateway.

/** The lamp row as the page answers it (LampRow of libs/contracts), by id. */
const REFERENCE_ROWS = `
  SELECT d.id, d.name AS "lampName", d.code AS "clientId", d.region_id AS "regionId", r.region_name AS "regionName",
         l.gateway_id AS "gatewayId", l.lamp_control_id AS "lampControlId", l.addr, l.mac, l.bri, l.switch_state AS "switchState",
         l.status, l.network_status AS "networkStatus", l.telemetry, l.faults, l.hardware_version AS "hardwareVersion",
         l.software_version AS "softwareVersion", l.total_illumination_hours AS "totalIlluminationHours", l.reported_at AS "reportedAt",
         l.loop_id AS "loopId", lp.name AS "loopName", l.level, l.color, d.group_id AS "groupId", g.name AS "groupName",
         d.latitude, d.longitude, l.strategy_id AS "strategyId", st.name AS "strategyName", l.mode, l.mode_data AS "modeData",
         l.job_list AS "jobList"
    FROM device d JOIN lamp l ON l.device_id = d.id LEFT JOIN region r ON r.id = d.region_id
    LEFT JOIN lamp_loop lp ON lp.id = l.loop_id LEFT JOIN device_group g ON g.id = d.group_id LEFT JOIN strategy st ON st.id = l.strategy_id
   WHERE d.id = ANY($1::int[]) ORDER BY d.id`;

async function expected(client, body, withRows) {
  const filter = page.sqlFilter();
  if (body.lampName) filter.add(`strpos(lower(d.name), ?) > 0`, body.lampName.trim().toLowerCase());
  if (body.regionId) {
    filter.add(
      `d.region_id IN (WITH RECURSIVE sub(id) AS (SELECT ?::int UNION SELECT c.id FROM region c JOIN sub ON c.parent_id = sub.id) SELECT id FROM sub)`,
      body.regionId,
    );
  }
  if (body.status !== undefined) filter.add(`l.status = ?`, body.status);
  if (body.networkStatus !== undefined) filter.add(`l.network_status = ?`, body.networkStatus);
  if (body.gatewayId) filter.add(`l.gateway_id = ?`, body.gatewayId);
  if (body.loopId) filter.add(`l.loop_id = ?`, body.loopId);
  if (body.groupId) filter.add(`d.group_id = ?`, body.groupId);
  const { total, ids } = await page.referencePage(
    client,
    { from: 'device d JOIN lamp l ON l.device_id = d.id', id: 'd.id', order: 'd.id' },
    filter,
    body,
  );
  const rows = withRows ? (await client.query(REFERENCE_ROWS, [ids])).rows : null;
  return { total, ids, rows };
}

// ---------------------------------------------------------------------------------------------------------------
// Memory, refused connections and this database's share of PostgreSQL, from /proc (Linux) and pg_stat_activity.

const rssMb = (pid) => processMemory(pid).rssMb;

/** Connections the kernel refused or dropped because a listen queue was full (TcpExt ListenOverflows, ListenDrops). */
function listenOverflows() {
  try {
    const lines = readFileSync('/proc/net/netstat', 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('TcpExt:'));
    const [names, values] = lines.map((l) => l.split(/\s+/).slice(1));
    const at = (name) => Number(values[names.indexOf(name)] ?? 0);
    return at('ListenOverflows') + at('ListenDrops');
  } catch {
    return 0;
  }
}

/**
 * CPU of the PostgreSQL backends serving this run's database (the gateway's pool opens and closes connections, so
 * they are looked up every 250 ms): ticks of those present at the start count from then, later ones from birth.
 */
async function watchOwnPostgres(bench) {
  const client = new pg.Client({ connectionString: bench.databaseUrl });
  await client.connect();
  const seen = new Map();
  let first = true;
  let running = true;
  const poll = async () => {
    const { rows } = await client.query(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [bench.dbName]);
    for (const { pid } of rows) {
      const ticks = processTicks(pid)?.ticks;
      if (ticks === undefined) continue;
      const entry = seen.get(pid);
      if (entry) entry.last = ticks;
      else seen.set(pid, { first: first ? ticks : 0, last: ticks });
    }
    first = false;
  };
  await poll();
  const loop = (async () => {
    while (running) {
      await sleep(250);
      await poll();
    }
  })();
  return async () => {
    running = false;
    await loop;
    await poll();
    await client.end();
    let ticks = 0;
    for (const { first: from, last } of seen.values()) ticks += last - from;
    return ticks;
  };
}

/** Lamp rows rewritten as the intake does, `rate` per second in batches every 100 ms, until stopped. */
function startWriter(bench, rate) {
  if (!(rate > 0)) return { stop: async () => ({ written: 0 }) };
  let running = true;
  let written = 0;
  const done = withClient(bench.databaseUrl, async (client) => {
    const { rows } = await client.query(`SELECT device_id AS id FROM lamp`);
    const ids = rows.map((r) => r.id);
    const perTick = Math.max(1, Math.round(rate / 10));
    let at = 0;
    while (running) {
      const started = performance.now();
      const batch = [];
      for (let i = 0; i < perTick; i++) batch.push(ids[(at++ * 7919) % ids.length]);
      batch.sort((a, b) => a - b);
      await client.query(
        `UPDATE lamp l SET telemetry = jsonb_set(coalesce(l.telemetry, '{}'), '{ts}', to_jsonb(now())), reported_at = now(),
                status = l.status, network_status = l.network_status, bri = l.bri, switch_state = l.switch_state
          WHERE l.device_id = ANY($1::int[])`,
        [[...new Set(batch)]],
      );
      written += batch.length;
      await sleep(Math.max(0, 100 - (performance.now() - started)));
    }
  });
  return {
    stop: async () => {
      running = false;
      await done;
      return { written };
    },
  };
}

await page.runPageBench({ dbName: DB_NAME, redisPrefix: REDIS_PREFIX, stack: true }, async (bench) => {
  log(`Preparing ${DB_NAME} with ${settings.lamps.toLocaleString('en-US')} lamps (seed ${settings.seed})`);
  const started = performance.now();
  const fleet = await bench.prepare((c) => loadFleet(c, generator(settings.seed)));
  const stats = await withClient(bench.databaseUrl, async (c) => {
    const { rows } = await c.query(
      `SELECT (SELECT count(*) FROM lamp)::int AS lamps, (SELECT count(*) FROM region)::int AS regions,
              (SELECT count(*) FROM lamp_gateway)::int AS gateways, (SELECT count(*) FROM lamp_loop)::int AS loops,
              (SELECT count(*) FROM device_group WHERE type = 1)::int AS groups,
              (SELECT count(*) FILTER (WHERE status <> 0) FROM lamp)::int AS abnormal,
              (SELECT count(*) FILTER (WHERE network_status = 0) FROM lamp)::int AS offline,
              pg_size_pretty(pg_total_relation_size('lamp') + pg_total_relation_size('device')) AS size`,
    );
    return rows[0];
  });
  log(
    `  database ready in ${page.secondsSince(started)} s: ${stats.lamps.toLocaleString('en-US')} lamps, ` +
      `${stats.regions} regions, ${stats.gateways} gateways, ${stats.loops} loops, ${stats.groups} groups; ` +
      `${stats.abnormal.toLocaleString('en-US')} not normal, ${stats.offline.toLocaleString('en-US')} offline; lamp + device ${stats.size}`,
  );
  const gateway = await bench.serve();

  const rotation = makeBodies(fleet, settings.bodies, settings.seed + 1);
  // BODIES_FILE=path writes them out (kind and body, one JSON per line) for replaying elsewhere.
  if (env.BODIES_FILE) writeFileSync(env.BODIES_FILE, rotation.map((b) => JSON.stringify(b)).join('\n') + '\n');
  const byKind = new Map();
  for (const b of rotation) byKind.set(b.kind, [...(byKind.get(b.kind) ?? []), b]);
  log(
    `  ${rotation.length.toLocaleString('en-US')} request bodies of ${byKind.size} kinds, ${rotation.distinct.toLocaleString('en-US')} of them distinct`,
  );

  // A sample of the bodies, every kind, must answer exactly what the database holds, before any load.
  const perKind = Math.max(1, Math.ceil(settings.checked / byKind.size));
  let checked = 0;
  let rowsChecked = 0;
  await withClient(bench.databaseUrl, async (client) => {
    for (const [kind, items] of byKind) {
      for (const [i, { body }] of items.slice(0, perKind).entries()) {
        const withRows = i < 3;
        const answer = await bench.post(PATH, body);
        const want = await expected(client, body, withRows);
        const got = page.checkPage(`lampPage (${kind})`, body, answer, want, { message: true });
        if (withRows) {
          const reference = JSON.parse(JSON.stringify(want.rows));
          for (const [n, row] of got.list.entries()) {
            if (JSON.stringify(row) !== JSON.stringify(reference[n])) {
              throw new Error(`lampPage (${kind}) row ${row.id} differs:\n  got  ${JSON.stringify(row)}\n  want ${JSON.stringify(reference[n])}`);
            }
          }
          rowsChecked += got.list.length;
        }
        checked += 1;
      }
    }
  });
  log(`  ${checked} bodies (every kind) checked against SQL: exact totals and pages; ${rowsChecked} rows compared field by field`);

  // Each connection cycles through a slice of its own, so the whole rotation goes round before a body repeats.
  const buffers = rotation.map(({ body }) => JSON.stringify(body));
  const common = (connections) => {
    let next = 0;
    const per = Math.max(1, Math.floor(buffers.length / connections));
    return {
      ...page.loadOptions(bench, connections),
      requests: [{ method: 'POST', path: PATH, body: buffers[0] }],
      setupClient: (client) => {
        const from = (next++ * per) % buffers.length;
        client.setRequests(buffers.slice(from, from + per).map((body) => ({ method: 'POST', path: PATH, body })));
      },
    };
  };

  await page.logAmbientLoad();

  const measure = async (connections, duration) => {
    const writer = startWriter(bench, settings.writeRate);
    let peakRss = rssMb(gateway.pid);
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(gateway.pid))), 250);
    const ownPostgres = await watchOwnPostgres(bench);
    const overflowsBefore = listenOverflows();
    const m = await page.measuredRun(gateway.pid, { ...common(connections), duration });
    m.cpu.ownPostgres = (100 * (await ownPostgres())) / CLK_TCK / m.seconds;
    clearInterval(sampler);
    const { written } = await writer.stop();
    const refused = listenOverflows() - overflowsBefore;
    return { ...m, connections, peakRss, endRss: rssMb(gateway.pid), written, refused };
  };
  const report = (label, m) => {
    const lat = m.result.latency;
    const rows = page.resultRows(
      m,
      `${m.cpu.ownPostgres.toFixed(0)} % of one core for this database (${m.cpu.postgres.toFixed(0)} % all PostgreSQL processes)`,
    );
    rows.push(['gateway RSS', `${m.endRss.toFixed(0)} MB at the end, peak ${m.peakRss.toFixed(0)} MB`]);
    // Connection attempts the kernel dropped with the listen queue full (the machine's, whoever they were for): each
    // is retried by the client after 1, 3, 7 s, which shows as latency or as a timeout.
    if (m.refused > 0) rows.push(['listen queue full', `${m.refused} connection attempt(s) dropped by the kernel`]);
    if (settings.writeRate > 0) rows.push(['lamp rows written', `${(m.written / (m.result.duration || 1)).toFixed(0)}/s during the run`]);
    log('');
    log(label);
    page.logRows(rows);
    log(
      `| ${m.connections} | ${m.rps.toFixed(0)} | ${lat.p50} | ${lat.p90} | ${lat.p99} | ${lat.max} | ${m.errors} | ${m.cpu.gateway.toFixed(0)} % | ${m.cpu.ownPostgres.toFixed(0)} % | ${m.cpu.loadGenerator.toFixed(0)} % | ${m.cpu.machineBusy.toFixed(0)} % | ${m.peakRss.toFixed(0)} MB |`,
    );
  };

  await page.warmUp(common(settings.connections));

  // Each kind alone, one request at a time, after the warm-up: what a request of that kind costs without concurrency
  // (autocannon, one connection; the bodies are the kind's own, beyond those checked above).
  if (settings.probe > 0) {
    log(`Each kind alone: ${settings.probe} requests per kind, one connection, one at a time (ms)`);
    log(`  ${'kind'.padEnd(26)} ${'p50'.padStart(6)} ${'p90'.padStart(6)} ${'max'.padStart(6)} ${'mean total'.padStart(11)}`);
    const probeRows = [];
    for (const [kind, items] of byKind) {
      const chosen = (items.length > perKind ? items.slice(perKind) : items).slice(0, settings.probe);
      const meanTotal = chosen.reduce((sum, { body }) => sum + fleet.lamps.reduce((n, l) => n + (matches(l, body) ? 1 : 0), 0), 0) / chosen.length;
      const r = await page.cannon({
        url: bench.baseUrl,
        connections: 1,
        amount: settings.probe,
        headers: page.authHeaders(bench.token),
        requests: chosen.map(({ body }) => ({ method: 'POST', path: PATH, body: JSON.stringify(body) })),
      });
      probeRows.push([kind, r.latency.p50, r.latency.p90, r.latency.max]);
      log(
        `  ${kind.padEnd(26)} ${String(r.latency.p50).padStart(6)} ${String(r.latency.p90).padStart(6)} ${String(r.latency.max).padStart(6)} ${Math.round(meanTotal).toLocaleString('en-US').padStart(11)}`,
      );
    }
    log(`| ${probeRows.map((r) => `${r[0]} ${r[1]}/${r[2]}`).join(' | ')} |`);
  }

  log(
    `Measuring: ${settings.durationSeconds} s, ${settings.connections} connections, ${rotation.length.toLocaleString('en-US')} rotating bodies` +
      (settings.writeRate > 0 ? `, ${settings.writeRate} lamp rows rewritten per second` : ''),
  );
  const main = await measure(settings.connections, settings.durationSeconds);
  report(`At ${settings.connections} connections:`, main);

  const overloads = [];
  for (const connections of settings.overload) {
    log('');
    log(`Overload: ${settings.overloadSeconds} s, ${connections} connections`);
    const m = await measure(connections, settings.overloadSeconds);
    report(`At ${connections} connections:`, m);
    overloads.push([connections, m]);
  }

  const more = overloads.filter(([, m]) => m.errors > 0).map(([connections, m]) => `${m.errors} request(s) failed at ${connections} connections`);
  page.verdict(bench, main, { more, met: ' (also under overload)' });
});
