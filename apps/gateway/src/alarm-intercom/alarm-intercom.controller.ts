import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  ALARM_FAMILY,
  Button,
  EXPORT_FILE_NAMES,
  type AgentMe,
  type AlarmCallRow,
  type AlarmIncidentDetail,
  type AlarmIncidentRow,
  type AlarmUserGroupRow,
  type IncidentNearby,
  type IncidentRespondResult,
  type IntercomEndpointRow,
  type PageResult,
  type VoiceConfig,
  type VoiceJoinAnswer,
} from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import { IdQueryDto } from '../common/fields';
import { languageOf, type AppRequest, type Caller } from '../common/request-context';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ListExporter, XLSX_CONTENT_TYPE } from '../exports/list-export';
import { CALL_EXPORT } from './call-export';
import {
  AgentModeDto,
  AlarmCallFiltersDto,
  AlarmCallPageDto,
  AlarmIncidentPageDto,
  AlarmUserGroupAddOrEditDto,
  AlarmUserGroupPageDto,
  IncidentActionDto,
  IncidentIdDto,
  IncidentLevelDto,
  IncidentNoteDto,
  IncidentRespondDto,
  IntercomEndpointPageDto,
  VoiceJoinDto,
} from './dto/intercom.dto';
import { CallVoiceService } from './call-voice.service';
import { SignedQuery } from '../common/signed-query';
import { IncidentResponsesService } from './incident-responses.service';
import { AlarmIncidentsService } from './incidents.service';
import { IntercomEndpointsService } from './intercom-endpoints.service';
import { AlarmUserGroupsService } from './user-groups.service';

/**
 * The alarm intercom (docs/alarm-intercom.md): user groups of agents (userGroupManagement), incidents and their calls,
 * the call log (callLogQuery). For the roles of the alarm family's events (administrators and editors), as the alarm
 * columns. Saving a group needs Add or Edit and deleting one Delete; an incident is handled with Edit. Answering,
 * rejecting and hanging up are the agent's own: the server checks that the call rings, or is connected to, the caller.
 * A response around the column needs Edit too, and the button of the family's action (the lamps' dimming, the LED
 * screens' play, the broadcast task), checked where that family's dispatch is written.
 */
@ApiTags('alarm intercom')
@ApiBearerAuth()
@RequireRoles(...ALARM_FAMILY.eventRoles)
@Controller('alarm')
export class AlarmIntercomController {
  constructor(
    private readonly groups: AlarmUserGroupsService,
    private readonly incidents: AlarmIncidentsService,
    private readonly responses: IncidentResponsesService,
    private readonly endpoints: IntercomEndpointsService,
    private readonly voice: CallVoiceService,
    private readonly exporter: ListExporter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('groupPage')
  @HttpCode(200)
  groupPage(@Body() dto: AlarmUserGroupPageDto): Promise<PageResult<AlarmUserGroupRow>> {
    return this.groups.page(dto);
  }

  /** The users who may be made agents (enabled), with the group each is an agent of. */
  @Get('agentCandidates')
  candidates(): Promise<{ id: number; username: string; groupId: number | null }[]> {
    return this.groups.candidates();
  }

  @Post('groupAddOrEdit')
  @HttpCode(200)
  @Audit('Save alarm user group')
  saveGroup(@CurrentCaller() caller: Caller, @Body() dto: AlarmUserGroupAddOrEditDto): Promise<{ id: number }> {
    if (!caller.buttons.includes(dto.id === undefined ? Button.Add : Button.Edit)) throw AppException.forbidden();
    return this.groups.save(dto);
  }

  @Get('groupDel')
  @RequireButton(Button.Delete)
  @Audit('Delete alarm user group')
  async removeGroup(@Query() q: IdQueryDto): Promise<null> {
    await this.groups.remove(q.id);
    return null;
  }

  @Get('agentMe')
  agentMe(@CurrentCaller() caller: Caller): Promise<AgentMe | null> {
    return this.incidents.me(caller);
  }

  @Post('agentMode')
  @HttpCode(200)
  agentMode(@CurrentCaller() caller: Caller, @Body() dto: AgentModeDto): Promise<AgentMe> {
    return this.incidents.setMode(caller, dto.mode);
  }

  @Post('incidentPage')
  @HttpCode(200)
  incidentPage(@Body() dto: AlarmIncidentPageDto): Promise<PageResult<AlarmIncidentRow>> {
    return this.incidents.page(dto);
  }

  @Get('incidentDetail')
  incidentDetail(@Query() q: IncidentIdDto): Promise<AlarmIncidentDetail> {
    return this.incidents.detail(q.id);
  }

  @Post('incidentAnswer')
  @HttpCode(200)
  @Audit('Answer alarm call')
  answer(@CurrentCaller() caller: Caller, @Body() dto: IncidentIdDto): Promise<AlarmIncidentRow> {
    return this.incidents.answer(caller, dto.id);
  }

  @Post('incidentReject')
  @HttpCode(200)
  @Audit('Reject alarm call')
  reject(@CurrentCaller() caller: Caller, @Body() dto: IncidentIdDto): Promise<AlarmIncidentRow> {
    return this.incidents.reject(caller, dto.id);
  }

  @Post('incidentHangUp')
  @HttpCode(200)
  @Audit('Hang up alarm call')
  hangUp(@CurrentCaller() caller: Caller, @Body() dto: IncidentIdDto): Promise<AlarmIncidentRow> {
    return this.incidents.hangUp(caller, dto.id);
  }

  @Post('incidentAcknowledge')
  @HttpCode(200)
  @RequireButton(Button.Edit)
  @Audit('Acknowledge alarm incident')
  acknowledge(@CurrentCaller() caller: Caller, @Body() dto: IncidentActionDto): Promise<AlarmIncidentRow> {
    return this.incidents.acknowledge(caller, dto.id, dto.note);
  }

  @Post('incidentNote')
  @HttpCode(200)
  @RequireButton(Button.Edit)
  @Audit('Note on alarm incident')
  note(@CurrentCaller() caller: Caller, @Body() dto: IncidentNoteDto): Promise<AlarmIncidentRow> {
    return this.incidents.note(caller, dto.id, dto.note);
  }

  @Post('incidentLevel')
  @HttpCode(200)
  @RequireButton(Button.Edit)
  @Audit('Change alarm incident level')
  level(@CurrentCaller() caller: Caller, @Body() dto: IncidentLevelDto): Promise<AlarmIncidentRow> {
    return this.incidents.level(caller, dto.id, dto.level);
  }

  @Post('incidentClose')
  @HttpCode(200)
  @RequireButton(Button.Edit)
  @Audit('Close alarm incident')
  close(@CurrentCaller() caller: Caller, @Body() dto: IncidentActionDto): Promise<AlarmIncidentRow> {
    return this.incidents.close(caller, dto.id, dto.note);
  }

  /** The devices near the incident's column that each response would go to, nearest first. */
  @Get('incidentNearby')
  incidentNearby(@CurrentCaller() caller: Caller, @Query() q: IncidentIdDto): Promise<IncidentNearby> {
    return this.responses.nearby(caller, q.id);
  }

  @Post('incidentRespond')
  @HttpCode(200)
  @RequireButton(Button.Edit)
  @Audit('Respond to alarm incident')
  respond(@CurrentCaller() caller: Caller, @Body() dto: IncidentRespondDto): Promise<IncidentRespondResult> {
    return this.responses.respond(caller, dto);
  }

  @Post('callPage')
  @HttpCode(200)
  async callPage(@Body() dto: AlarmCallPageDto): Promise<PageResult<AlarmCallRow>> {
    const page = await this.incidents.calls(dto);
    return { ...page, list: this.voice.withRecordingLinks(page.list) };
  }

  /** What the browser's peer connection needs for a call's voice (VOICE_ICE_SERVERS). */
  @Get('voiceConfig')
  voiceConfig(): VoiceConfig {
    return this.voice.voiceConfig();
  }

  /** The voice of the caller's connected call: the browser's offer in, the bridge's answer out. */
  @Post('voiceJoin')
  @HttpCode(200)
  voiceJoin(@CurrentCaller() caller: Caller, @Body() dto: VoiceJoinDto): Promise<VoiceJoinAnswer> {
    return this.voice.join(caller, dto.callId, dto.sdp);
  }

  /** A call's recording (MP3), for a signed link from the call log. */
  @Get('recording')
  @SignedQuery
  @ApiProduces('audio/mpeg')
  async recording(@Req() req: AppRequest, @Res() reply: FastifyReply): Promise<void> {
    const { stream, size } = await this.voice.recording(req.query as Record<string, unknown>);
    await reply.header('content-type', 'audio/mpeg').header('content-length', size).header('cache-control', 'private, max-age=300').send(stream);
  }

  /** equipmentInquiry: the intercom's endpoints (alarm columns and agents) with their accounts, state and calls. */
  @Post('endpointPage')
  @HttpCode(200)
  endpointPage(@Body() dto: IntercomEndpointPageDto): Promise<PageResult<IntercomEndpointRow>> {
    return this.endpoints.page(dto);
  }

  /** The call log as filtered and sorted on screen, as an xlsx download (times in the installation's zone). */
  @Get('callExport')
  @ApiProduces(XLSX_CONTENT_TYPE)
  callExport(@Req() req: AppRequest, @Query() q: AlarmCallFiltersDto, @Res() reply: FastifyReply): Promise<void> {
    return this.exporter.send(reply, EXPORT_FILE_NAMES.call, CALL_EXPORT, { ...q, timeZone: this.config.defaultPlace.timeZone }, languageOf(req));
  }
}
