import { OnlineState, TerminalOccupancy, TerminalStatus } from '@sc/contracts';
import { REGION_AND_BELOW } from '../common/device-selection';
import { Where, likeContains } from '../common/sql';

export interface TerminalFilters {
  terminalName?: string;
  regionId?: number;
  status?: TerminalStatus;
}

/** The status filter over the stored fields (spec section 4: online, offline, occupy), as terminalStatusOf reads them. */
const STATUS_CONDITION: Record<TerminalStatus, [condition: string, value: unknown]> = {
  [TerminalStatus.Offline]: [`t.network_status <> ?`, OnlineState.Online],
  [TerminalStatus.Online]: [`(t.network_status = ${OnlineState.Online} AND t.occupancy = ?)`, TerminalOccupancy.Idle],
  [TerminalStatus.Occupied]: [`(t.network_status = ${OnlineState.Online} AND t.occupancy <> ?)`, TerminalOccupancy.Idle],
};

/**
 * The terminal list's filters over `device d JOIN broadcast_terminal t`, shared by the page and the export: the name
 * or the terminal ID, the region and below, the status.
 */
export function terminalWhere(f: TerminalFilters): Where {
  const where = new Where()
    // The name or the terminal ID (the separator keeps a match from spanning both).
    .addIf(f.terminalName, `lower(d.name || chr(1) || d.code) LIKE ?`, f.terminalName && likeContains(f.terminalName))
    .addIf(f.regionId, `d.region_id IN (${REGION_AND_BELOW})`);
  if (f.status) where.add(...STATUS_CONDITION[f.status]);
  return where;
}
