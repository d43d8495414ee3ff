import type { QueueName, JobName } from '../queues';
import { Role, type Button } from '../roles';
import type { FamilyDeclaration, LiveFieldsOf } from './declaration';
import { LAMP_FAMILY } from './lamp.family';
import { LAMP_GATEWAY_FAMILY } from './lamp-gateway.family';
import { STRIP_FAMILY } from './strip.family';
import { BROADCAST_FAMILY } from './broadcast.family';
import { SIGNAGE_FAMILY } from './signage.family';
import { LED_FAMILY } from './led.family';
import { RADAR_FAMILY } from './radar.family';
import { AC_FAMILY } from './ac.family';
import { AP_FAMILY } from './ap.family';
import { ALARM_FAMILY } from './alarm.family';
import { CAMERA_FAMILY } from './camera.family';

export * from './declaration';
export * from './lamp.family';
export * from './strip.family';
export * from './lamp-gateway.family';
export * from './broadcast.family';
export * from './signage.family';
export * from './signage-publish';
export * from './led.family';
export * from './radar.family';
export * from './ac.family';
export * from './ap.family';
export * from './alarm.family';
export * from './camera.family';

/**
 * Every declared device family. A new family is one more file beside these and one more entry here; the maps below,
 * the event types and docs/asyncapi.yaml follow from it.
 */
export const FAMILIES = [
  LAMP_FAMILY,
  STRIP_FAMILY,
  LAMP_GATEWAY_FAMILY,
  BROADCAST_FAMILY,
  SIGNAGE_FAMILY,
  LED_FAMILY,
  RADAR_FAMILY,
  AC_FAMILY,
  AP_FAMILY,
  ALARM_FAMILY,
  CAMERA_FAMILY,
] as const;

type Declared = (typeof FAMILIES)[number];

/** The declared families' names (their MQTT family). */
export type FamilyName = Declared['family'];

/** Each declared family's live fields, by name: what its DeviceStateChanged events carry. */
export type FamilyLiveFields = { [D in Declared as D['family']]: LiveFieldsOf<D> };

/** Each declared family's control actions, by name. */
export type FamilyActions = { [D in Declared as D['family']]: keyof D['actions'] & string };

const BY_NAME = new Map<string, FamilyDeclaration>(FAMILIES.map((f) => [f.family, f]));

/** The declaration of a family, or undefined for a name that is not a declared family. */
export function familyDeclaration(family: string): FamilyDeclaration | undefined {
  return BY_NAME.get(family);
}

export function isFamilyName(family: unknown): family is FamilyName {
  return typeof family === 'string' && BY_NAME.has(family);
}

/** The button a family's action needs (the same for a first send and for a retry); undefined for an unknown action. */
export function controlButton(family: string, action: string): Button | undefined {
  const actions = familyDeclaration(family)?.actions;
  return actions && Object.hasOwn(actions, action) ? actions[action] : undefined;
}

/** Roles that receive a family's live events: its declared roles, and administrators always. */
export function familyEventRoles(family: string): readonly string[] {
  return [...new Set<string>([Role.Admin, ...(familyDeclaration(family)?.eventRoles ?? [])])];
}

/** The queue of every job: the dispatch job of each family that takes commands. */
export const QUEUE_OF_JOB: Readonly<Record<JobName, QueueName>> = Object.fromEntries(
  FAMILIES.flatMap((f) => (f.job && f.queue ? [[f.job, f.queue]] : [])),
) as Record<JobName, QueueName>;

export function jobsOfQueue(queue: QueueName): JobName[] {
  return (Object.keys(QUEUE_OF_JOB) as JobName[]).filter((job) => QUEUE_OF_JOB[job] === queue);
}

/** The families whose dispatches travel on a queue (the families a worker serving that queue must handle). */
export function familiesOfQueue(queue: QueueName): FamilyDeclaration[] {
  return FAMILIES.filter((f) => f.queue === queue);
}
