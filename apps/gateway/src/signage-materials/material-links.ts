import { Injectable } from '@nestjs/common';
import { SignedFileLinks } from '../common/signed-links';

/** Where signed links lead (the console port, no session needed): MaterialsController.file and .cover. */
export const MATERIAL_FILE_PATH = '/api/signage/material/file';
export const MATERIAL_COVER_PATH = '/api/signage/material/cover';

/** Signed links to a material's file: the console's preview (a video element seeks with ranges), and the players later. */
@Injectable()
export class MaterialFileLinks extends SignedFileLinks {
  protected readonly kind = { path: MATERIAL_FILE_PATH, label: 'signage-material' };
}

/** Signed links to a material's cover (its JPEG thumbnail), as the list shows them. */
@Injectable()
export class MaterialCoverLinks extends SignedFileLinks {
  protected readonly kind = { path: MATERIAL_COVER_PATH, label: 'signage-material-cover' };
}
