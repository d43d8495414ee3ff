import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { MEDIA_LINK_PARAMS } from '@sc/contracts';
import { Public } from './decorators';

/** A public route opened by a signed link's query (SignedFileLinks): no session, the signature is the permission. */
export const SignedQuery = applyDecorators(
  Public(),
  ApiQuery({ name: MEDIA_LINK_PARAMS.id, type: String, required: false }),
  ApiQuery({ name: MEDIA_LINK_PARAMS.expires, type: String, required: false, description: 'Seconds since the epoch' }),
  ApiQuery({ name: MEDIA_LINK_PARAMS.signature, type: String, required: false }),
);
