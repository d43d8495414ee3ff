import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsUUID } from 'class-validator';
import { DispatchItemState, PAGE_SIZE_MAX, type DispatchDetailQuery } from '@sc/contracts';
import { EnumField, IntField, msg } from '../../common/fields';

/** A dispatch, by its id (a UUID). */
export class DispatchIdDto {
  @IsNotEmpty({ message: msg('pleaseSelect') })
  @IsUUID('all', { message: msg('invalidValue') })
  @ApiProperty({ format: 'uuid' })
  id!: string;
}

/** A dispatch and its rows: all of them, or a page (of those in one state). */
export class DispatchDetailDto extends DispatchIdDto implements DispatchDetailQuery {
  @IntField({ required: false, min: 1, max: 1_000_000 })
  pageNum?: number;

  @IntField({ required: false, min: 1, max: PAGE_SIZE_MAX })
  pageSize?: number;

  @EnumField(Object.values(DispatchItemState), { required: false })
  state?: DispatchItemState;
}
