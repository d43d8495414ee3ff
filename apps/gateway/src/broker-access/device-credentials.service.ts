import { Inject, Injectable } from '@nestjs/common';
import {
  DEVICE_CODE_PATTERN,
  DEVICE_TYPE_OF_FAMILY,
  FAMILY_OF_DEVICE_TYPE,
  familyDeclaration,
  type DeviceFamily,
  mqttUsernames,
  type DeviceType,
  type MqttCredentials,
} from '@sc/contracts';
import { derivedMqttPassword } from '@sc/messaging';
import type { EntityManager } from 'typeorm';
import { AppException } from '../common/app-exception';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/**
 * The MQTT credentials the console hands out: a device's login after it is created, and a new one after Edit MQTT
 * raises its credential generation (the old password stops working as soon as the broker's accounts are written
 * again: docs/security.md). Nothing stores a password; it is derived from the installation's secret.
 */
@Injectable()
export class DeviceCredentials {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Whether the installation hands out logins (it has a credential secret). */
  get available(): boolean {
    return Boolean(this.config.mqttCredentialSecret);
  }

  /** The login of a device account, or undefined without a credential secret or for a code no username can hold. */
  of(family: DeviceFamily, code: string, generation: number): MqttCredentials | undefined {
    const secret = this.config.mqttCredentialSecret;
    if (!secret || !DEVICE_CODE_PATTERN.test(code)) return undefined;
    const username = mqttUsernames.device(family, code);
    return { username, password: derivedMqttPassword(secret, username, generation) };
  }

  /** Gives a registry device a new credential generation (inside the caller's transaction) and answers its new login. */
  async rotate(tx: EntityManager, deviceId: number): Promise<MqttCredentials | undefined> {
    const row = await nextGeneration(tx, 'device', deviceId);
    const family = row?.type !== undefined ? FAMILY_OF_DEVICE_TYPE[row.type] : undefined;
    return row && family ? this.of(family, row.code, row.generation) : undefined;
  }

  /**
   * Edit MQTT without a new code, and a lamp gateway's new code: the device of `family` with record `id` gets a new
   * credential generation and its new login is answered (a device with a record of its own, a lamp gateway or a floor
   * screen, by its own id; any other device by its registry id). Unknown: not found.
   */
  async renew(tx: EntityManager, family: DeviceFamily, id: number): Promise<MqttCredentials | undefined> {
    const declaration = familyDeclaration(family);
    const row =
      declaration?.deviceType === null
        ? await nextGeneration(tx, declaration.table, id)
        : await nextGeneration(tx, 'device', id, DEVICE_TYPE_OF_FAMILY[family]);
    if (!row) throw AppException.notFound();
    return this.of(family, row.code, row.generation);
  }
}

/**
 * Raises one record's credential generation (`device`, of `type` when given, or the table of a family with records of
 * its own): the triggers on the column tell the broker's writer. Answers the record's code, generation and registry
 * type, or undefined when none.
 */
async function nextGeneration(
  tx: EntityManager,
  table: string,
  id: number,
  type?: DeviceType,
): Promise<{ code: string; generation: number; type?: DeviceType } | undefined> {
  const typed = table === 'device';
  // An UPDATE answers [rows, affected] through TypeORM.
  const [rows]: [{ code: string; generation: number; type?: DeviceType }[], number] = await tx.query(
    `UPDATE ${table} SET mqtt_generation = nextval('mqtt_credential_seq')
      WHERE id = $1${type === undefined ? '' : ' AND type = $2'}
      RETURNING code, mqtt_generation AS generation${typed ? ', type' : ''}`,
    type === undefined ? [id] : [id, type],
  );
  return rows[0];
}
