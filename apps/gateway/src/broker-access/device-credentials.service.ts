import { Inject, Injectable } from '@nestjs/common';
import {
  DEVICE_CODE_PATTERN,
  DEVICE_TYPE_OF_FAMILY,
  DeviceFamily,
  FAMILY_OF_DEVICE_TYPE,
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

  /** Gives the device a new credential generation (inside the caller's transaction) and answers its new login. */
  async rotate(tx: EntityManager, deviceId: number): Promise<MqttCredentials | undefined> {
    // An UPDATE answers [rows, affected] through TypeORM.
    const [rows]: [{ type: DeviceType; code: string; generation: number }[], number] = await tx.query(
      `UPDATE device SET mqtt_generation = nextval('mqtt_credential_seq') WHERE id = $1 RETURNING type, code, mqtt_generation AS generation`,
      [deviceId],
    );
    const row = rows[0];
    const family = row && FAMILY_OF_DEVICE_TYPE[row.type];
    return family ? this.of(family, row.code, row.generation) : undefined;
  }

  /**
   * Edit MQTT without a new code: the device of `family` with record `id` gets a new credential generation and its new
   * login is answered (a lamp gateway by its own id, any other device by its registry id). Unknown: not found.
   */
  async renew(tx: EntityManager, family: DeviceFamily, id: number): Promise<MqttCredentials | undefined> {
    // An UPDATE answers [rows, affected] through TypeORM.
    const [rows]: [{ code: string; generation: number }[], number] =
      family === DeviceFamily.LampGateway
        ? await tx.query(
            `UPDATE lamp_gateway SET mqtt_generation = nextval('mqtt_credential_seq') WHERE id = $1 RETURNING code, mqtt_generation AS generation`,
            [id],
          )
        : await tx.query(
            `UPDATE device SET mqtt_generation = nextval('mqtt_credential_seq') WHERE id = $1 AND type = $2
              RETURNING code, mqtt_generation AS generation`,
            [id, DEVICE_TYPE_OF_FAMILY[family]],
          );
    if (!rows[0]) throw AppException.notFound();
    return this.of(family, rows[0].code, rows[0].generation);
  }
}
