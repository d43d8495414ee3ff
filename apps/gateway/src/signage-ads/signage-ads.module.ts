import { Module } from '@nestjs/common';
import { MaterialCoverLinks } from '../signage-materials/material-links';
import { PlansAdUsage } from '../signage-plans/plan-ad-usage';
import { AD_PLAN_USAGE } from './ad-plan-usage';
import { AdsController } from './ads.controller';
import { AdsService } from './ads.service';

/** Floor-screen ads on the console port (docs/signage-ads.md); an ad an ad plan names is not deleted (PlansAdUsage). */
@Module({
  controllers: [AdsController],
  providers: [AdsService, MaterialCoverLinks, { provide: AD_PLAN_USAGE, useClass: PlansAdUsage }],
})
export class SignageAdsModule {}
