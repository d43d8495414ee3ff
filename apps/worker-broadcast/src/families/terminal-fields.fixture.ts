import { OnlineState, TerminalOccupancy } from '@sc/contracts';
import type { TerminalFields } from './terminal.handler';

/** A terminal's stored fields for tests: offline and idle at default volumes, with `fields` over them. */
export const terminalFields = (fields: Partial<TerminalFields> = {}): TerminalFields => ({
  networkStatus: OnlineState.Offline,
  occupancy: TerminalOccupancy.Idle,
  playing: null,
  heldTasks: [],
  download: null,
  broadcastVolume: 50,
  interphoneVolume: 50,
  hardwareVersion: '',
  softwareVersion: '',
  reportedAt: null,
  ...fields,
});
