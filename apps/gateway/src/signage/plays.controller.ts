import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { SIGNAGE_FAMILY, type PlayReportResult } from '@sc/contracts';
import { RequireRoles } from '../common/decorators';
import { languageOf, type AppRequest } from '../common/request-context';
import { XLSX_CONTENT_TYPE } from '../exports/list-export';
import { PlayReportDto, PlayReportFiltersDto } from './dto/plays.dto';
import { SignagePlaysService } from './plays.service';

/**
 * Proof of play (/floor-screen/plays): what the players played, summed for advertisers. Read by the roles of the
 * other floor-screen reads (SIGNAGE_FAMILY.eventRoles); nothing here changes anything.
 */
@ApiTags('floor screens')
@ApiBearerAuth()
@RequireRoles(...SIGNAGE_FAMILY.eventRoles)
@Controller('signage')
export class SignagePlaysController {
  constructor(private readonly plays: SignagePlaysService) {}

  /** Plays and played seconds per ad, player, day (or all three) over a range of days, a page of them with the totals. */
  @Post('playReport')
  @HttpCode(200)
  report(@Body() dto: PlayReportDto): Promise<PlayReportResult> {
    return this.plays.report(dto);
  }

  /** The same report, every line of it, as an xlsx download. */
  @Get('playExport')
  @ApiProduces(XLSX_CONTENT_TYPE)
  export(@Req() req: AppRequest, @Query() q: PlayReportFiltersDto, @Res() reply: FastifyReply): Promise<void> {
    return this.plays.export(reply, q, languageOf(req));
  }
}
