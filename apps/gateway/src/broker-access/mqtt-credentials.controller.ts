import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { Button, RENEWABLE_FAMILIES, Role, type DeviceFamily, type MqttCredentials, type MqttRenewRequest } from '@sc/contracts';
import { Audit, RequireButton, RequireRoles } from '../common/decorators';
import { EnumField, IntField } from '../common/fields';
import { InjectDb } from '../infra/database';
import { DeviceCredentials } from './device-credentials.service';

export class MqttRenewDto implements MqttRenewRequest {
  @EnumField(RENEWABLE_FAMILIES)
  family!: DeviceFamily;

  @IntField({ min: 1 })
  id!: number;
}

/**
 * Edit MQTT for any device whose code stays: strip lights, lamp poles, lamp gateways and every family to come (a lamp
 * changes its code and credentials together through lampEditMqtt). Administrators with the Edit MQTT button only.
 */
@ApiTags('mqtt')
@ApiBearerAuth()
@RequireRoles(Role.Admin)
@Controller('mqtt')
export class MqttCredentialsController {
  constructor(
    @InjectDb() private readonly db: DataSource,
    private readonly credentials: DeviceCredentials,
  ) {}

  /** New MQTT credentials for one device, answered once: the old password stops working and its connection drops. */
  @Post('renew')
  @HttpCode(200)
  @RequireButton(Button.EditMqtt)
  @Audit('Renew device MQTT credentials')
  async renew(@Body() dto: MqttRenewDto): Promise<{ mqtt?: MqttCredentials }> {
    return { mqtt: await this.db.transaction((tx) => this.credentials.renew(tx, dto.family, dto.id)) };
  }
}
