import { Inject, Injectable } from '@nestjs/common';
import { DEVICE_CODE_PATTERN, FAMILY_OF_DEVICE_TYPE, mqttUsernames, type DeviceFamily, type DeviceType, type MqttCredentials } from '@sc/contracts';
import { derivedMqttPassword } from '@sc/messaging';
import type { EntityManager } from 'typeorm';
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
}
