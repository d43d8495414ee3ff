import { IntersectionType } from '@nestjs/swagger';
import { LED_MEDIA_NAME_MAX, LED_MEDIA_TYPES, type LedMediaPageQuery, type MediaType } from '@sc/contracts';
import { EnumField, PageDto, TextField } from '../../common/fields';

class LedMediaFilters {
  @TextField({ max: LED_MEDIA_NAME_MAX, required: false, description: 'Part of the name, any case' })
  name?: string;

  @EnumField(LED_MEDIA_TYPES, { required: false, description: '1 picture, 2 video' })
  type?: MediaType;
}

export class LedMediaPageDto extends IntersectionType(PageDto, LedMediaFilters) implements LedMediaPageQuery {}
