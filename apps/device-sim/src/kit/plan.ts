import { DEVICE_CODE_PATTERN, type FamilyDeclaration, type LampSchedule } from '@sc/contracts';
import { Client } from 'pg';

/** A device to simulate, with the gateway recorded for it if any. */
export interface DeviceSeed {
  code: string;
  gatewayId?: string;
  /** The schedule the device was last given (its jobList): a controller keeps it across restarts. */
  schedule?: LampSchedule;
  /** Credential generations of the device and of its gateway when the gateway has a record (the registry's; 1 when not given). */
  generation?: number;
  gatewayGeneration?: number;
  /** Columns of the device's own record that its family asked loadSeeds for (a floor screen's name and orientation). */
  record?: Readonly<Record<string, unknown>>;
}

/**
 * The registry's devices of a family, with the gateway their records name (an empty one means none recorded) and, when
 * asked, the schedule they were last given. The family's table is keyed by `device_id` and, for a family whose
 * devices hang off gateways, has `gateway_id` (and `job_list` for schedules), as `lamp` and `strip_light` do.
 */
export async function loadSeeds(
  databaseUrl: string,
  declaration: FamilyDeclaration,
  options: { schedules: boolean; gateways?: boolean },
): Promise<DeviceSeed[]> {
  if (declaration.deviceType === null) throw new Error(`device-sim: ${declaration.family} devices are not in the registry`);
  return withClient(databaseUrl, (client) => registrySeeds(client, declaration, options));
}

/**
 * The devices of a family with records of its own (its table keyed by `id`, with `code` and `mqtt_generation`, as
 * `signage_device`), each with the named columns of its record in `record`.
 */
export async function loadOwnSeeds(databaseUrl: string, declaration: FamilyDeclaration, columns: readonly string[] = []): Promise<DeviceSeed[]> {
  if (declaration.deviceType !== null) throw new Error(`device-sim: ${declaration.family} devices are in the registry`);
  return withClient(databaseUrl, async (client) => {
    // The table and column names come from the family's code, never from input.
    const { rows } = await client.query<Record<string, unknown> & { code: string; generation: number }>(
      `SELECT ${['code', 'mqtt_generation AS generation', ...columns].join(', ')} FROM ${declaration.table} ORDER BY code`,
    );
    return rows.map(({ code, generation, ...record }) => ({ code, generation, record }));
  });
}

/** One connection to the registry's database for `run`, closed after it. */
export async function withClient<T>(databaseUrl: string, run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function registrySeeds(
  client: Client,
  declaration: FamilyDeclaration,
  options: { schedules: boolean; gateways?: boolean },
): Promise<DeviceSeed[]> {
  {
    // The table name comes from the family's declaration, never from input.
    const { rows } = await client.query<{
      code: string;
      gateway_id: string | null;
      job_list: LampSchedule | null;
      generation: number;
      gateway_generation: number | null;
    }>(
      `${
        options.gateways === false
          ? `SELECT d.code, NULL AS gateway_id, NULL AS job_list, d.mqtt_generation AS generation, NULL AS gateway_generation
               FROM device d`
          : `SELECT d.code, nullif(t.gateway_id, '') AS gateway_id, ${options.schedules ? 't.job_list' : 'NULL AS job_list'},
                d.mqtt_generation AS generation, g.mqtt_generation AS gateway_generation
               FROM device d LEFT JOIN ${declaration.table} t ON t.device_id = d.id
               LEFT JOIN lamp_gateway g ON g.code = t.gateway_id`
      } WHERE d.type = $1 ORDER BY d.code`,
      [declaration.deviceType],
    );
    return rows.map((r) => ({
      code: r.code,
      generation: r.generation,
      ...(r.gateway_id ? { gatewayId: r.gateway_id } : {}),
      ...(r.gateway_generation !== null ? { gatewayGeneration: r.gateway_generation } : {}),
      ...(r.job_list ? { schedule: r.job_list } : {}),
    }));
  }
}

/** Which devices a fleet simulates: explicit codes, `count` generated codes, or the registry's. */
export type DeviceSource = readonly (string | DeviceSeed)[] | { count: number; prefix?: string } | { databaseUrl: string };

/** Codes `prefix` + a five-digit number from 1 (wider past 99,999): LAMP-00001, LAMP-00002, ... */
export function generateCodes(count: number, prefix: string): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(5, '0')}`);
}

/**
 * The seeds of a source: generated codes (`defaultPrefix` unless it names one), the given ones, or the registry's read
 * by `load`. `registered`: the devices are the registry's, so the platform made their MQTT accounts.
 */
export async function seedsOf(
  source: DeviceSource,
  defaultPrefix: string,
  load: (databaseUrl: string) => Promise<DeviceSeed[]>,
): Promise<{ seeds: DeviceSeed[]; registered: boolean }> {
  if ('databaseUrl' in source) return { seeds: await load(source.databaseUrl), registered: true };
  if ('count' in source) return { seeds: generateCodes(source.count, source.prefix ?? defaultPrefix).map((code) => ({ code })), registered: false };
  return { seeds: source.map((s) => (typeof s === 'string' ? { code: s } : s)), registered: false };
}

export interface FleetPlan {
  /** Gateway id → the codes of the devices hanging off it, in order. */
  gateways: Map<string, string[]>;
  /** Codes that cannot be a topic level (or are repeated), left out. */
  rejected: string[];
}

/**
 * Devices with a recorded gateway stay with it; the others fill generated gateways `gatewayPrefix` + number,
 * `perGateway` at a time. Gateway ids are MQTT client ids, so two fleets on one broker need distinct prefixes.
 */
export function planFleet(seeds: readonly DeviceSeed[], perGateway: number, gatewayPrefix: string): FleetPlan {
  const gateways = new Map<string, string[]>();
  const rejected: string[] = [];
  const seen = new Set<string>();
  const unassigned: string[] = [];
  for (const seed of seeds) {
    if (!DEVICE_CODE_PATTERN.test(seed.code) || seen.has(seed.code) || (seed.gatewayId !== undefined && !DEVICE_CODE_PATTERN.test(seed.gatewayId))) {
      rejected.push(seed.code);
      continue;
    }
    seen.add(seed.code);
    if (seed.gatewayId) {
      const codes = gateways.get(seed.gatewayId) ?? [];
      codes.push(seed.code);
      gateways.set(seed.gatewayId, codes);
    } else {
      unassigned.push(seed.code);
    }
  }
  const size = Math.max(1, Math.floor(perGateway));
  for (let i = 0; i < unassigned.length; i += size) {
    const id = `${gatewayPrefix}${String(i / size + 1).padStart(4, '0')}`;
    gateways.set(id, [...(gateways.get(id) ?? []), ...unassigned.slice(i, i + size)]);
  }
  return { gateways, rejected };
}

/** `count` distinct indexes out of `total`, drawn with `random` (a partial Fisher-Yates shuffle). */
export function pickIndexes(total: number, count: number, random: () => number): Set<number> {
  const indexes = Array.from({ length: total }, (_, i) => i);
  const n = Math.min(total, Math.max(0, count));
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (total - i));
    [indexes[i], indexes[j]] = [indexes[j], indexes[i]];
  }
  return new Set(indexes.slice(0, n));
}
