export type RejectReason = 'bad-topic' | 'malformed' | 'unknown-device';

export interface CounterSnapshot {
  received: number;
  /** Well-formed messages of known devices, taken into the intake. */
  accepted: number;
  /** Accepted messages stored (and then acknowledged to the broker). */
  written: number;
  rejected: Record<RejectReason, number>;
  commandsPublished: number;
  commandsResent: number;
  acks: number;
  /** Acks for a command that was already answered or is not this device's: re-acks after a re-send are normal. */
  acksIgnored: number;
  expired: number;
  /** Messages the database refused for what they hold (not for being unreachable): stored without, and logged. */
  writeErrors: number;
  /** Writes tried again because the database was unreachable or busy. */
  writeRetries: number;
  /** Stored states passed over because the device had reported live since they were asked for. */
  storedSuperseded: number;
  /** Devices taken offline for having been silent too long (SilenceSweep). */
  silentOffline: number;
  /** Empty stored states: a device's retained state removed from the broker (taken out of service), nothing to store. */
  statesCleared: number;
  /** Receipts recorded: how far devices have got with commands that name files to fetch. */
  receipts: number;
  /** States the worker learnt of its devices by other means than their messages (a camera probe), taken in. */
  observed: number;
}

/** What the worker has done since it started; logged periodically and read by tests and GET /health. */
export class Counters {
  private values: CounterSnapshot = {
    received: 0,
    accepted: 0,
    written: 0,
    rejected: { 'bad-topic': 0, malformed: 0, 'unknown-device': 0 },
    commandsPublished: 0,
    commandsResent: 0,
    acks: 0,
    acksIgnored: 0,
    expired: 0,
    writeErrors: 0,
    writeRetries: 0,
    storedSuperseded: 0,
    silentOffline: 0,
    statesCleared: 0,
    receipts: 0,
    observed: 0,
  };

  add(counter: Exclude<keyof CounterSnapshot, 'rejected'>, n = 1): void {
    this.values[counter] += n;
  }

  reject(reason: RejectReason): void {
    this.values.rejected[reason] += 1;
  }

  snapshot(): CounterSnapshot {
    return { ...this.values, rejected: { ...this.values.rejected } };
  }
}
