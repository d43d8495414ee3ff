/**
 * Lamp energy: integrated by the lighting worker from each lamp's power readings (telemetry `power`, W) into hourly
 * sums, and compared with what the lamp would have used at its rated power while it was lit (the saving of dimming).
 */

/** Rated power of a lamp without one of its own, W. */
export const DEFAULT_RATED_POWER_W = 100;

export type EnergyPeriod = 'day' | 'month';

/** Sums over a period. Wh; `fullWh` is rated power × lit time, `savingWh` = fullWh − energyWh (never below 0). */
export interface EnergyFigures {
  energyWh: number;
  fullWh: number;
  savingWh: number;
  /** Hours the lamps were lit (summed over lamps). */
  litHours: number;
  lampCount: number;
}

/** A region of the tree with the sums of its own lamps and of every region below it. */
export interface EnergyRegionNode extends EnergyFigures {
  id: number;
  name: string;
  zhCn: string;
  enUs: string;
  childList: EnergyRegionNode[];
}

/** GET /api/light/energyTree?period=&date= */
export interface EnergyTree {
  period: EnergyPeriod;
  /** The period's bounds (ISO 8601) in the installation's time zone; a lamp in a region of another zone is counted over its own day or month. */
  from: string;
  to: string;
  timeZone: string;
  total: EnergyFigures;
  /** Lamps without a region. */
  unassigned: EnergyFigures;
  tree: EnergyRegionNode[];
}

export interface EnergyQuery {
  period: EnergyPeriod;
  /** YYYY-MM-DD (for a month, any day of it). */
  date: string;
}

/** POST /api/light/energyLampPage */
export interface EnergyLampPageQuery extends EnergyQuery {
  pageNum: number;
  pageSize: number;
  regionId?: number;
  lampName?: string;
}

export interface EnergyLampRow extends Omit<EnergyFigures, 'lampCount'> {
  id: number;
  lampName: string;
  clientId: string;
  regionId: number | null;
  regionName: string | null;
  ratedPower: number;
}

/** GET /api/light/energySeries?period=&date=&regionId=&id= : hourly points for a day, daily points for a month. */
export interface EnergySeriesQuery extends EnergyQuery {
  regionId?: number;
  /** One lamp. */
  id?: number;
}

export interface EnergyPoint {
  /** Start of the hour or day (ISO 8601). */
  at: string;
  energyWh: number;
  fullWh: number;
}

export interface EnergySeries {
  period: EnergyPeriod;
  timeZone: string;
  points: EnergyPoint[];
}
