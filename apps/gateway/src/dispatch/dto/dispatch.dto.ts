import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsUUID } from 'class-validator';
import { msg } from '../../common/fields';

/** A dispatch, by its id (a UUID). */
export class DispatchIdDto {
  @IsNotEmpty({ message: msg('pleaseSelect') })
  @IsUUID('all', { message: msg('invalidValue') })
  @ApiProperty({ format: 'uuid' })
  id!: string;
}
