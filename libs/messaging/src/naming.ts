import { busChannelOf, type BusEventName } from '@sc/contracts';

/** BullMQ keys of an installation live under its Redis prefix, like every other key (`sc:bull:<queue>:…`). */
export function bullPrefix(redisPrefix: string): string {
  return `${redisPrefix}bull`;
}

/** The Redis pub/sub channel of one bus event for an installation. */
export function busChannel(redisPrefix: string, event: BusEventName): string {
  return `${redisPrefix}${busChannelOf(event)}`;
}
