import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The operation log's module (OperationModule: the first segment of the call's API path), so that a module's log (the
 * floor screens') is one indexed filter of the one log. Rows written before are filed by their controller's name.
 */
export class OperationLogModule1732199997000 implements MigrationInterface {
  name = 'OperationLogModule1732199997000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE operation_log ADD COLUMN module varchar(16)`);
    await q.query(`
      UPDATE operation_log l SET module = m.module
        FROM (VALUES
          ('SignageDevicesController', 'signage'), ('SignageGroupsController', 'signage'), ('MaterialsController', 'signage'),
          ('MaterialUploadController', 'signage'), ('AdsController', 'signage'), ('LedController', 'led'),
          ('BroadcastTasksController', 'broadcast'), ('BroadcastGroupsController', 'broadcast'), ('MediaUploadController', 'broadcast'),
          ('MediaController', 'broadcast'), ('TerminalsController', 'broadcast'), ('PlaylistsController', 'broadcast'),
          ('EquipmentController', 'lighting'), ('LightingController', 'lighting'), ('StripsController', 'lighting'),
          ('StripStrategiesController', 'lighting'), ('EnergyController', 'lighting'), ('StrategiesController', 'lighting'),
          ('PolesController', 'lighting'), ('AlarmsController', 'lighting'), ('UsersController', 'system'), ('AuthController', 'system'),
          ('RegionsController', 'system'), ('MqttCredentialsController', 'system')
        ) AS m(controller, module)
       WHERE split_part(l.method_name, '.', 1) = m.controller`);
    await q.query(`
      UPDATE operation_log SET module = CASE WHEN description = 'Import broadcast terminals' THEN 'broadcast' ELSE 'lighting' END
       WHERE split_part(method_name, '.', 1) = 'ImportsController'`);
    await q.query(`CREATE INDEX operation_log_module_idx ON operation_log (module, operation_time DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE operation_log DROP COLUMN module`);
  }
}
