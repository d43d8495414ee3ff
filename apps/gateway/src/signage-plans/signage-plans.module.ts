import { Module } from '@nestjs/common';
import { DispatchModule } from '../dispatch/dispatch.module';
import { MaterialFileLinks } from '../signage-materials/material-links';
import { AdPlansController } from './plans.controller';
import { AdPlansService } from './plans.service';

/** Floor-screen ad plans on the console port: kept, published through the ledger, followed per screen (docs/signage-plans.md). */
@Module({
  imports: [DispatchModule],
  controllers: [AdPlansController],
  providers: [AdPlansService, MaterialFileLinks],
})
export class SignagePlansModule {}
