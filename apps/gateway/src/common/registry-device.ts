import type { EntityManager } from 'typeorm';
import { Button, DeviceType, FAMILY_OF_DEVICE_TYPE, type MqttCredentials } from '@sc/contracts';
import type { DeviceCredentials } from '../broker-access/device-credentials.service';
import { AppException } from './app-exception';
import { assertRegionExists } from './device-selection';
import type { Caller } from './request-context';

/** The registry part of a device a family's page adds or changes (its own table holds the rest). */
export interface RegistryDeviceInput {
  type: DeviceType;
  /** The record to change; undefined to add one. */
  id?: number;
  code: string;
  name: string;
  /** Null takes it out of its region or off its pole; undefined (on edit) keeps it. */
  regionId?: number | null;
  poleId?: number | null;
  /** The request field that carries the code, named in a refusal. */
  codeField: string;
}

export interface SavedRegistryDevice {
  id: number;
  /** Whether the record was added (the family adds its own row), else changed. */
  created: boolean;
  /** The login, answered once: a new device's, or a new one after its code changed. */
  mqtt?: MqttCredentials;
}

export async function assertPoleExists(tx: EntityManager, poleId: number): Promise<void> {
  const rows: unknown[] = await tx.query(`SELECT 1 FROM device WHERE id = $1 AND type = $2`, [poleId, DeviceType.LampPole]);
  if (rows.length === 0) throw AppException.field('poleId', 'poleNotFound');
}

/**
 * Adds a registry device (with its code as its MQTT identity, its login handed out once: docs/security.md) or changes
 * one, in the caller's transaction, for the pages of the registry families (broadcast terminals, LED screens). Adding
 * needs Add, changing needs Edit, and changing the code (its MQTT identity, rotating its login) Edit MQTT besides.
 */
export async function saveRegistryDevice(
  tx: EntityManager,
  caller: Caller,
  credentials: DeviceCredentials,
  d: RegistryDeviceInput,
): Promise<SavedRegistryDevice> {
  if (!caller.buttons.includes(d.id === undefined ? Button.Add : Button.Edit)) throw AppException.forbidden();
  if (d.regionId !== undefined && d.regionId !== null) await assertRegionExists(tx, d.regionId);
  if (d.poleId !== undefined && d.poleId !== null) await assertPoleExists(tx, d.poleId);
  if (d.id === undefined) {
    const [{ id, generation }]: { id: number; generation: number }[] = await tx.query(
      `INSERT INTO device (type, code, name, region_id, pole_id) VALUES ($1, $2, $3, $4, $5) RETURNING id, mqtt_generation AS generation`,
      [d.type, d.code, d.name, d.regionId ?? null, d.poleId ?? null],
    );
    return { id, created: true, mqtt: credentials.of(FAMILY_OF_DEVICE_TYPE[d.type], d.code, generation) };
  }
  const [current]: { code: string }[] = await tx.query(`SELECT code FROM device WHERE id = $1 AND type = $2 FOR UPDATE`, [d.id, d.type]);
  if (!current) throw AppException.notFound();
  if (current.code !== d.code && !caller.buttons.includes(Button.EditMqtt)) throw AppException.field(d.codeField, 'clientIdNeedsEditMqtt');
  await tx.query(
    `UPDATE device SET code = $2, name = $3,
            region_id = CASE WHEN $4::boolean THEN $5::int ELSE region_id END,
            pole_id = CASE WHEN $6::boolean THEN $7::int ELSE pole_id END, updated_at = now()
      WHERE id = $1`,
    [d.id, d.code, d.name, d.regionId !== undefined, d.regionId ?? null, d.poleId !== undefined, d.poleId ?? null],
  );
  if (current.code === d.code) return { id: d.id, created: false };
  return { id: d.id, created: false, mqtt: await credentials.rotate(tx, d.id) };
}

/** Deletes a registry device of a type; its family's row and its dispatch rows go with it. */
export async function removeRegistryDevice(tx: EntityManager, type: DeviceType, id: number): Promise<void> {
  const [, affected] = (await tx.query(`DELETE FROM device WHERE id = $1 AND type = $2`, [id, type])) as [unknown, number];
  if (!affected) throw AppException.notFound();
}
