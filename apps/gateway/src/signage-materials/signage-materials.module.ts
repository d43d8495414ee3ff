import { Module } from '@nestjs/common';
import { UploadService } from '../uploads/upload.service';
import { MaterialCoverLinks, MaterialFileLinks } from './material-links';
import { MaterialProbe } from '../uploads/material-probe';
import { MaterialUploadController } from './material-upload.controller';
import { AdMaterialUsage } from '../signage-ads/ad-material-usage';
import { MATERIAL_USAGE } from './material-usage';
import { MaterialsController } from './materials.controller';
import { MaterialsService } from './materials.service';

/** Which ads use a material comes from the ads' tables (AdMaterialUsage): a material in use is not deleted. */
const PROVIDERS = [
  MaterialsService,
  MaterialProbe,
  MaterialFileLinks,
  MaterialCoverLinks,
  UploadService,
  { provide: MATERIAL_USAGE, useClass: AdMaterialUsage },
];

/** Floor-screen materials on the console port. */
@Module({ controllers: [MaterialsController], providers: PROVIDERS })
export class SignageMaterialsModule {}

/** Floor-screen material uploads, on the upload port. */
@Module({ controllers: [MaterialUploadController], providers: PROVIDERS })
export class SignageMaterialsUploadModule {}
