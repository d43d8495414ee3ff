import { ApiProperty } from '@nestjs/swagger';
import { NUMBER_BOUNDS } from '@sc/contracts';
import { Coordinate, IntField } from './fields';

/**
 * Where a pole device a page adds or changes is: its own position (both or neither; null takes its pole's), its region
 * and the lamp pole it is mounted on. On edit, a field left out keeps its value.
 */
export class PositionedPlacementDto {
  @Coordinate(NUMBER_BOUNDS.latitude)
  @ApiProperty({ required: false, nullable: true, example: 22.5431, description: "Its own position; null takes its pole's" })
  latitude?: number | null;

  @Coordinate(NUMBER_BOUNDS.longitude)
  @ApiProperty({ required: false, nullable: true, example: 114.0579 })
  longitude?: number | null;

  @IntField({ min: 1, required: false, description: 'null for no region; omitted on edit keeps the current one' })
  regionId?: number | null;

  @IntField({ min: 1, required: false, description: 'The lamp pole it is mounted on; null for none; omitted on edit keeps it' })
  poleId?: number | null;
}
