import { Module } from '@nestjs/common';
import { UploadService } from '../uploads/upload.service';
import { MaterialCoverLinks, MaterialFileLinks } from './material-links';
import { MaterialProbe } from './material-probe';
import { MaterialUploadController } from './material-upload.controller';
import { MATERIAL_USAGE, NoMaterialUsage } from './material-usage';
import { MaterialsController } from './materials.controller';
import { MaterialsService } from './materials.service';

/** The ads module replaces NoMaterialUsage with its own MaterialUsage (material-usage.ts). */
const PROVIDERS = [
  MaterialsService,
  MaterialProbe,
  MaterialFileLinks,
  MaterialCoverLinks,
  UploadService,
  { provide: MATERIAL_USAGE, useClass: NoMaterialUsage },
];

/** Floor-screen materials on the console port. */
@Module({ controllers: [MaterialsController], providers: PROVIDERS })
export class SignageMaterialsModule {}

/** Floor-screen material uploads, on the upload port. */
@Module({ controllers: [MaterialUploadController], providers: PROVIDERS })
export class SignageMaterialsUploadModule {}
