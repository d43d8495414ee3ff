import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  ALARM_FAMILY,
  Button,
  EXPORT_FILE_NAMES,
  type AlarmColumnRow,
  type LampControlResult,
  type MqttCredentials,
  type PageResult,
} from '@sc/contracts';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import { IdQueryDto } from '../common/fields';
import { languageOf, type AppRequest, type Caller } from '../common/request-context';
import { ListExporter, XLSX_CONTENT_TYPE } from '../exports/list-export';
import { exportSourceOf } from '../imports/import-table';
import { ALARM_IMPORT } from '../imports/alarm-import.table';
import { AlarmColumnsService } from './alarm-columns.service';
import {
  AlarmColumnAddOrEditDto,
  AlarmColumnFiltersDto,
  AlarmColumnPageDto,
  AlarmAnnounceDto,
  AlarmColumnSelectionDto,
  AlarmColumnVolumeDto,
} from './dto/alarm-column.dto';

/**
 * One-key alarm columns (/alarmManage/alarmManage). Spec section 2 shows /alarmManage always but gates no alarm
 * route: administrators and editors (the roles that receive the family's events) open it; visitors and others are
 * refused. Saving needs Add or Edit, deleting Delete, a reboot Open and close, the volume Edit (as for the screens).
 */
@ApiTags('alarm columns')
@ApiBearerAuth()
@RequireRoles(...ALARM_FAMILY.eventRoles)
@Controller('alarm')
export class AlarmColumnsController {
  constructor(
    private readonly columns: AlarmColumnsService,
    private readonly exporter: ListExporter,
  ) {}

  @Post('columnPage')
  @HttpCode(200)
  page(@Body() dto: AlarmColumnPageDto): Promise<PageResult<AlarmColumnRow>> {
    return this.columns.page(dto);
  }

  @Get('columnDetail')
  @RequireButton(Button.View)
  detail(@Query() q: IdQueryDto): Promise<AlarmColumnRow> {
    return this.columns.detail(q.id);
  }

  /** The list as filtered on screen, as an xlsx download (the import's columns first: it imports again). */
  @Get('columnExport')
  @ApiProduces(XLSX_CONTENT_TYPE)
  export(@Req() req: AppRequest, @Query() q: AlarmColumnFiltersDto, @Res() reply: FastifyReply): Promise<void> {
    return this.exporter.send(reply, EXPORT_FILE_NAMES.column, exportSourceOf(ALARM_IMPORT), { ...q }, languageOf(req));
  }

  /** Adds a column (no id) or changes one (Add or Edit button); a new one's MQTT login is answered once. */
  @Post('columnAddOrEdit')
  @HttpCode(200)
  @Audit('Save alarm column')
  save(@CurrentCaller() caller: Caller, @Body() dto: AlarmColumnAddOrEditDto): Promise<{ id: number; mqtt?: MqttCredentials }> {
    return this.columns.save(caller, dto);
  }

  @Get('columnDel')
  @RequireButton(Button.Delete)
  @Audit('Delete alarm column')
  async remove(@Query() q: IdQueryDto): Promise<null> {
    await this.columns.remove(q.id);
    return null;
  }

  @Post('columnReboot')
  @HttpCode(200)
  @RequireButton(ALARM_FAMILY.actions.reboot)
  @Audit('Reboot alarm columns')
  reboot(@CurrentCaller() caller: Caller, @Body() dto: AlarmColumnSelectionDto): Promise<LampControlResult> {
    return this.columns.reboot(caller, dto);
  }

  /** audioInquiry: an announcement (media of the broadcast library, or a text) on the columns' speakers, in a playback mode. */
  @Post('columnAnnounce')
  @HttpCode(200)
  @RequireButton(ALARM_FAMILY.actions.announce)
  @Audit('Announce on alarm columns')
  announce(@CurrentCaller() caller: Caller, @Body() dto: AlarmAnnounceDto): Promise<LampControlResult> {
    return this.columns.announce(caller, dto);
  }

  @Post('columnAnnounceStop')
  @HttpCode(200)
  @RequireButton(ALARM_FAMILY.actions.stopAnnounce)
  @Audit('Stop alarm column announcement')
  stopAnnounce(@CurrentCaller() caller: Caller, @Body() dto: AlarmColumnSelectionDto): Promise<LampControlResult> {
    return this.columns.stopAnnounce(caller, dto);
  }

  @Post('columnVolume')
  @HttpCode(200)
  @RequireButton(ALARM_FAMILY.actions.volume)
  @Audit('Set alarm column volume')
  volume(@CurrentCaller() caller: Caller, @Body() dto: AlarmColumnVolumeDto): Promise<LampControlResult> {
    return this.columns.volume(caller, dto);
  }
}
