import type { TerminalRow } from './broadcast';
import type { PageQuery } from './envelope';

/** Longest group name and remark (the columns' widths). */
export const BROADCAST_GROUP_NAME_MAX = 64;
export const BROADCAST_GROUP_REMARK_MAX = 255;
/** A group holds at most this many terminals. */
export const BROADCAST_GROUP_TERMINALS_MAX = 10_000;

/**
 * One row of the group list (POST /api/broadcast/groupPage). A group is a named set of broadcast terminals that
 * tasks address together; a terminal may be in several groups.
 */
export interface BroadcastGroupRow {
  id: number;
  /** Unique among broadcast groups, in any case. */
  groupName: string;
  regionId: number | null;
  regionName: string | null;
  remark: string;
  memberCount: number;
  /** ISO 8601. */
  createdAt: string;
  updatedAt: string;
}

/** GET /api/broadcast/groupDetail: the group and its terminals, in name order. */
export interface BroadcastGroupDetail extends BroadcastGroupRow {
  members: TerminalRow[];
}

export interface BroadcastGroupPageQuery extends PageQuery {
  /** Part of the group name, any case. */
  groupName?: string;
  /** Groups of this region and of its sub-regions. */
  regionId?: number;
}

/** POST /api/broadcast/groupAddOrEdit: adds a group (no id) or changes one. */
export interface BroadcastGroupAddOrEditRequest {
  id?: number;
  groupName: string;
  /** null for none; omitted on edit keeps the current one. */
  regionId?: number | null;
  /** Omitted on edit keeps the current one. */
  remark?: string;
  /** Every member (device ids of terminals); omitted on edit keeps the members, [] empties the group. */
  terminalIds?: number[];
}

/** GET /api/broadcast/groupOptions: every group for a picker; an empty group cannot be chosen. */
export interface BroadcastGroupOption {
  id: number;
  groupName: string;
  memberCount: number;
  empty: boolean;
}
