import { IntersectionType } from '@nestjs/swagger';
import { OperationStatus, type OperationLogQuery } from '@sc/contracts';
import { DateField, EnumField, PageDto, TextField } from '../../common/fields';

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
}

export class OperationLogPageDto extends IntersectionType(PageDto, OperationLogFilters) implements OperationLogQuery {}
