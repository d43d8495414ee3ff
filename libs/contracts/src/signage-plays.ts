import type { PageQuery, PageResult } from './envelope';

/** How a proof-of-play report sums the plays: per ad, per player, per day, or per ad, player and day. */
export type PlayReportBy = 'ad' | 'device' | 'day' | 'detail';
export const PLAY_REPORT_BYS: readonly PlayReportBy[] = ['ad', 'device', 'day', 'detail'];

/** A report covers at most this many days (a year and a day: a leap year's whole year). */
export const PLAY_REPORT_MAX_DAYS = 366;

/** The plays a report reads: a range of days (inclusive, on the installation's clock) and optional filters. */
export interface PlayReportFilters {
  /** YYYY-MM-DD, the first day. */
  startDate: string;
  /** YYYY-MM-DD, the last day (inclusive). */
  endDate: string;
  by: PlayReportBy;
  /** Players of this region and of its sub-regions. */
  regionId?: number;
  /** Players of this group. */
  groupId?: number;
  deviceId?: number;
  adId?: number;
}

export interface PlayReportQuery extends PageQuery, PlayReportFilters {}

/** One line of a report: the sums, and what they are of (the fields of its `by`). */
export interface PlayReportRow {
  adId?: number;
  /** null for an ad deleted since it played. */
  adName?: string | null;
  deviceId?: number;
  deviceName?: string;
  deviceCode?: string;
  /** YYYY-MM-DD. */
  day?: string;
  plays: number;
  seconds: number;
}

/** A page of a report, and the sums over all of it. */
export interface PlayReportResult extends PageResult<PlayReportRow> {
  totalPlays: number;
  totalSeconds: number;
}
