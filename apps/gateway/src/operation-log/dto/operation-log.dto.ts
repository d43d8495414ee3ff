import { IntersectionType, OmitType } from '@nestjs/swagger';
import { DEVICE_OPERATION_MODULES, OPERATION_MODULES, OperationModule, OperationStatus, type OperationLogQuery } from '@sc/contracts';
import { DateField, EnumField, IntField, PageDto, TextField } from '../../common/fields';

class OperationLogFilters {
  @TextField({ max: 64, required: false })
  operator?: string;

  @EnumField(Object.values(OperationStatus), { required: false })
  status?: OperationStatus;

  @DateField({ required: false })
  startTime?: string;

  @DateField({ required: false })
  endTime?: string;

  @TextField({ max: 128, required: false })
  description?: string;

  @EnumField(OPERATION_MODULES, { required: false, description: 'Calls of this module of the console' })
  module?: OperationModule;

  @IntField({ min: 1, required: false, description: 'Calls that name this record (with a module: a device of it) by id or among ids' })
  deviceId?: number;
}

export class OperationLogPageDto extends IntersectionType(PageDto, OperationLogFilters) implements OperationLogQuery {}

class ModuleLogFilters extends OmitType(OperationLogFilters, ['module'] as const) {
  @EnumField(DEVICE_OPERATION_MODULES, { description: 'Calls of this module of devices' })
  module!: OperationModule;
}

/** The log of one module of devices (its operators read it): the module is required, and cannot be the system's. */
export class ModuleLogPageDto extends IntersectionType(PageDto, ModuleLogFilters) implements OperationLogQuery {}
