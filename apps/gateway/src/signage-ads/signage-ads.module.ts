import { Module } from '@nestjs/common';
import { MaterialCoverLinks } from '../signage-materials/material-links';
import { AD_PLAN_USAGE, NoAdPlanUsage } from './ad-plan-usage';
import { AdsController } from './ads.controller';
import { AdsService } from './ads.service';

/** Floor-screen ads on the console port (docs/signage-ads.md). The ad plans module replaces NoAdPlanUsage. */
@Module({
  controllers: [AdsController],
  providers: [AdsService, MaterialCoverLinks, { provide: AD_PLAN_USAGE, useClass: NoAdPlanUsage }],
})
export class SignageAdsModule {}
