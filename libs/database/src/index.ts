import { DataSource, type DataSourceOptions } from 'typeorm';
import { AppSettingEntity } from './entities/app-setting.entity';
import { DeviceEntity } from './entities/device.entity';
import { OperationLogEntity } from './entities/operation-log.entity';
import { PermissionGroupEntity } from './entities/permission-group.entity';
import { RegionEntity } from './entities/region.entity';
import { SessionEntity } from './entities/session.entity';
import { UserEntity } from './entities/user.entity';
import { CoreSchema1732150000000 } from './migrations/1732150000000-core-schema';
import { UserPageIndexes1732160000000 } from './migrations/1732160000000-user-page-indexes';
import { AccessChangeNotifications1732170000000 } from './migrations/1732170000000-access-change-notifications';
import { LightingAndDispatch1732180000000 } from './migrations/1732180000000-lighting-and-dispatch';
import { DeviceGroupsAndPositions1732190000000 } from './migrations/1732190000000-device-groups-and-positions';
import { LampGatewaysAndLoops1732191000000 } from './migrations/1732191000000-lamp-gateways-and-loops';
import { LightingStrategies1732192000000 } from './migrations/1732192000000-lighting-strategies';
import { AlarmsAndEnergy1732193000000 } from './migrations/1732193000000-alarms-and-energy';
import { StripLights1732194000000 } from './migrations/1732194000000-strip-lights';
import { LampPolesAndImportGroups1732195000000 } from './migrations/1732195000000-lamp-poles-and-import-groups';
import { DeviceCodeChanges1732196000000 } from './migrations/1732196000000-device-code-changes';
import { DeviceRuntime1732197000000 } from './migrations/1732197000000-device-runtime';
import { LampListIndexes1732198000000 } from './migrations/1732198000000-lamp-list-indexes';
import { MqttCredentials1732199000000 } from './migrations/1732199000000-mqtt-credentials';
import { MqttCredentialSequence1732199100000 } from './migrations/1732199100000-mqtt-credential-sequence';
import { BroadcastTerminals1732199200000 } from './migrations/1732199200000-broadcast-terminals';
import { BroadcastGroups1732199300000 } from './migrations/1732199300000-broadcast-groups';
import { BroadcastMedia1732199400000 } from './migrations/1732199400000-broadcast-media';
import { BroadcastTerminalTasks1732199500000 } from './migrations/1732199500000-broadcast-terminal-tasks';
import { BroadcastPlayHistory1732199600000 } from './migrations/1732199600000-broadcast-play-history';
import { BroadcastTasks1732199700000 } from './migrations/1732199700000-broadcast-tasks';
import { BroadcastTaskClocks1732199800000 } from './migrations/1732199800000-broadcast-task-clocks';
import { BroadcastTaskStop1732199850000 } from './migrations/1732199850000-broadcast-task-stop';
import { SignageDevices1732199900000 } from './migrations/1732199900000-signage-devices';
import { SignageMaterials1732199910000 } from './migrations/1732199910000-signage-materials';
import { DispatchReceipts1732199950000 } from './migrations/1732199950000-dispatch-receipts';
import { SignageAds1732199960000 } from './migrations/1732199960000-signage-ads';
import { SignagePlays1732199970000 } from './migrations/1732199970000-signage-plays';
import { SignageScreenshots1732199985000 } from './migrations/1732199985000-signage-screenshots';
import { LedMediaTasks1732199990000 } from './migrations/1732199990000-led-media-tasks';
import { SignageAdPlans1732199995000 } from './migrations/1732199995000-signage-ad-plans';
import { SignagePlayHourly1732199996000 } from './migrations/1732199996000-signage-play-hourly';
import { OperationLogModule1732199997000 } from './migrations/1732199997000-operation-log-module';
import { LedTaskRegions1732199998000 } from './migrations/1732199998000-led-task-regions';
import { SignagePlanClocks1732199999000 } from './migrations/1732199999000-signage-plan-clocks';
import { Wifi1732200100000 } from './migrations/1732200100000-wifi';
import { WifiLoadSamples1732200110000 } from './migrations/1732200110000-wifi-load-samples';
import { LedScreens1732199920000 } from './migrations/1732199920000-led-screens';
import { Radar1732200200000 } from './migrations/1732200200000-radar';
import { RadarLampPending1732200400000 } from './migrations/1732200400000-radar-lamp-pending';
import { AlarmColumns1732200500000 } from './migrations/1732200500000-alarm-columns';
import { FamilyAlarms1732200600000 } from './migrations/1732200600000-family-alarms';
import { AlarmIntercom1732200700000 } from './migrations/1732200700000-alarm-intercom';
import { IncidentResponses1732200800000 } from './migrations/1732200800000-incident-responses';
import { OwnRecordAlarms1732200900000 } from './migrations/1732200900000-own-record-alarms';
import { VideoEquipment1732201000000 } from './migrations/1732201000000-video-equipment';
import { CallRecordings1732201100000 } from './migrations/1732201100000-call-recordings';

export { redactUrl } from './redact-url';
export { NotificationListener, type NotificationListenerOptions } from './notification-listener';
export { DEV_DEVICE_SECRET_KEY, decryptDeviceSecret, deviceSecretKey, encryptDeviceSecret } from './device-secrets';
export { ALARM_ROW_COLUMNS, ALARM_ROW_FROM, alarmRowsFrom } from './alarm-rows';
export {
  ALARM_CALL_COLUMNS,
  ALARM_INCIDENT_COLUMNS,
  ALARM_INCIDENT_FROM,
  CALL_HUNG_UP,
  callBackToWaiting,
  groupOfColumn,
  loadIncidentRows,
  logIncidentAction,
} from './alarm-incidents';
export { ACCESS_CHANGES_CHANNEL } from './migrations/1732170000000-access-change-notifications';
export { DEVICE_CODES_CHANNEL } from './migrations/1732196000000-device-code-changes';
export { BROKER_ACCESS_CHANNEL } from './migrations/1732199000000-mqtt-credentials';
export { RADAR_RULES_CHANNEL } from './migrations/1732200200000-radar';

export { AppSettingEntity, DeviceEntity, OperationLogEntity, PermissionGroupEntity, RegionEntity, SessionEntity, UserEntity };

/** Entities and migrations are listed, not globbed, so a bundled build finds every one. */
export const ENTITIES = [AppSettingEntity, DeviceEntity, OperationLogEntity, PermissionGroupEntity, RegionEntity, SessionEntity, UserEntity];
export const MIGRATIONS = [
  CoreSchema1732150000000,
  UserPageIndexes1732160000000,
  AccessChangeNotifications1732170000000,
  LightingAndDispatch1732180000000,
  DeviceGroupsAndPositions1732190000000,
  LampGatewaysAndLoops1732191000000,
  LightingStrategies1732192000000,
  AlarmsAndEnergy1732193000000,
  StripLights1732194000000,
  LampPolesAndImportGroups1732195000000,
  DeviceCodeChanges1732196000000,
  DeviceRuntime1732197000000,
  LampListIndexes1732198000000,
  MqttCredentials1732199000000,
  MqttCredentialSequence1732199100000,
  BroadcastTerminals1732199200000,
  BroadcastGroups1732199300000,
  BroadcastMedia1732199400000,
  BroadcastTerminalTasks1732199500000,
  BroadcastPlayHistory1732199600000,
  BroadcastTasks1732199700000,
  BroadcastTaskClocks1732199800000,
  BroadcastTaskStop1732199850000,
  SignageDevices1732199900000,
  SignageMaterials1732199910000,
  LedScreens1732199920000,
  DispatchReceipts1732199950000,
  SignageAds1732199960000,
  SignagePlays1732199970000,
  SignageScreenshots1732199985000,
  LedMediaTasks1732199990000,
  SignageAdPlans1732199995000,
  SignagePlayHourly1732199996000,
  OperationLogModule1732199997000,
  LedTaskRegions1732199998000,
  SignagePlanClocks1732199999000,
  Wifi1732200100000,
  WifiLoadSamples1732200110000,
  Radar1732200200000,
  RadarLampPending1732200400000,
  AlarmColumns1732200500000,
  FamilyAlarms1732200600000,
  AlarmIntercom1732200700000,
  IncidentResponses1732200800000,
  OwnRecordAlarms1732200900000,
  VideoEquipment1732201000000,
  CallRecordings1732201100000,
];

/** Notified (no payload) whenever rows are added to the outbox. */
export const OUTBOX_CHANNEL = 'sc_outbox';

export function dataSourceOptions(url: string): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    extra: { max: Number(process.env.DATABASE_POOL_SIZE ?? 20), connectionTimeoutMillis: 5000 },
  };
}

const MIGRATION_LOCK = 7_310_000;

/**
 * Runs pending migrations and returns the names it applied. Replicas starting together take turns:
 * an advisory lock, held on a connection of its own, lets one migrate while the others wait and then find nothing to do.
 */
export async function runMigrations(url: string): Promise<string[]> {
  const ds = new DataSource(dataSourceOptions(url));
  await ds.initialize();
  const lock = ds.createQueryRunner();
  try {
    await lock.connect();
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const applied = await ds.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await lock.release();
    await ds.destroy();
  }
}

export { ensureDatabase, databaseName, isAuthenticationFailure } from './ensure-database';
