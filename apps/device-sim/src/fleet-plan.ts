import { DEVICE_CODE_PATTERN, DeviceType, type LampSchedule } from '@sc/contracts';
import { Client } from 'pg';

/** A lamp to simulate, with the gateway recorded for it if any. */
export interface LampSeed {
  code: string;
  gatewayId?: string;
  /** The schedule the lamp was last given (its jobList): a controller keeps it across restarts. */
  schedule?: LampSchedule;
}

/** Lamp codes `prefix` + a five-digit number from 1: LAMP-00001, LAMP-00002, ... */
export function generateLampCodes(count: number, prefix = 'LAMP-'): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(5, '0')}`);
}

/** The registry's single lamps, with the gateway the lamp record names (empty means none recorded). */
export async function loadLampsFromDatabase(databaseUrl: string): Promise<LampSeed[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ code: string; gateway_id: string | null; job_list: LampSchedule | null }>(
      `SELECT d.code, nullif(l.gateway_id, '') AS gateway_id, l.job_list
         FROM device d LEFT JOIN lamp l ON l.device_id = d.id
        WHERE d.type = $1
        ORDER BY d.code`,
      [DeviceType.SingleLamp],
    );
    return rows.map((r) => ({
      code: r.code,
      ...(r.gateway_id ? { gatewayId: r.gateway_id } : {}),
      ...(r.job_list ? { schedule: r.job_list } : {}),
    }));
  } finally {
    await client.end();
  }
}

export interface FleetPlan {
  /** Gateway id → the codes of the lamps hanging off it, in order. */
  gateways: Map<string, string[]>;
  /** Codes that cannot be a topic level (or are repeated), left out. */
  rejected: string[];
}

/**
 * Lamps with a recorded gateway stay with it; the others fill generated gateways `gatewayPrefix` + number,
 * `lampsPerGateway` at a time. Gateway ids are MQTT client ids, so two fleets on one broker need distinct prefixes.
 */
export function planFleet(seeds: readonly LampSeed[], lampsPerGateway: number, gatewayPrefix: string): FleetPlan {
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
      const lamps = gateways.get(seed.gatewayId) ?? [];
      lamps.push(seed.code);
      gateways.set(seed.gatewayId, lamps);
    } else {
      unassigned.push(seed.code);
    }
  }
  const size = Math.max(1, Math.floor(lampsPerGateway));
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
