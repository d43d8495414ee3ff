import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Button, EXPORT_FILE_NAMES, Role, type CameraLiveLinks, type CameraRow, type PageResult } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import { IdQueryDto } from '../common/fields';
import { languageOf, type AppRequest, type Caller } from '../common/request-context';
import { SignedQuery } from '../common/signed-query';
import { ListExporter, XLSX_CONTENT_TYPE } from '../exports/list-export';
import { CameraAddOrEditDto, CameraFiltersDto, CameraPageDto } from './dto/camera.dto';
import { VideoLiveLinks, VideoSnapshotLinks } from './video-links';
import { VideoService, CAMERA_EXPORT } from './video.service';
import { VideoStreams, type StreamPart } from './video-streams';

function sendPart(reply: FastifyReply, part: StreamPart): void {
  void reply.header('Content-Type', part.contentType).header('Cache-Control', 'no-store').send(part.body);
}

/**
 * Video monitoring (/realVideo: equipment, video). Spec section 6: Real video admin, editor; its children admin only:
 * every call of the module is administrators'. Saving needs Add or Edit, deleting Delete. The live view's playlist,
 * segments and snapshot are opened by the signed links GET /api/video/live hands out (a video element sends no session).
 */
@ApiTags('video')
@ApiBearerAuth()
@RequireRoles(Role.Admin)
@Controller('video')
export class VideoController {
  constructor(
    private readonly video: VideoService,
    private readonly exporter: ListExporter,
    private readonly streams: VideoStreams,
    private readonly liveLinks: VideoLiveLinks,
    private readonly snapshotLinks: VideoSnapshotLinks,
  ) {}

  @Post('equipmentPage')
  @HttpCode(200)
  page(@Body() dto: CameraPageDto): Promise<PageResult<CameraRow>> {
    return this.video.page(dto);
  }

  @Get('equipmentDetail')
  @RequireButton(Button.View)
  detail(@Query() q: IdQueryDto): Promise<CameraRow> {
    return this.video.detail(q.id);
  }

  /** The list as filtered on screen, as an xlsx download (never a password). */
  @Get('equipmentExport')
  @ApiProduces(XLSX_CONTENT_TYPE)
  export(@Req() req: AppRequest, @Query() q: CameraFiltersDto, @Res() reply: FastifyReply): Promise<void> {
    return this.exporter.send(reply, EXPORT_FILE_NAMES.camera, CAMERA_EXPORT, { ...q }, languageOf(req));
  }

  /** Adds equipment (no id) or changes it (Add or Edit button). */
  @Post('equipmentAddOrEdit')
  @HttpCode(200)
  @Audit('Save video equipment')
  save(@CurrentCaller() caller: Caller, @Body() dto: CameraAddOrEditDto): Promise<{ id: number }> {
    return this.video.save(caller, dto);
  }

  @Get('equipmentDel')
  @RequireButton(Button.Delete)
  @Audit('Delete video equipment')
  async remove(@Query() q: IdQueryDto): Promise<null> {
    await this.video.remove(q.id);
    return null;
  }

  /** Signed links to watch a camera live (HLS) and take its snapshot, valid for VIDEO_LINK_TTL_SECONDS. */
  @Get('live')
  @RequireButton(Button.View)
  live(@Query() q: IdQueryDto): Promise<CameraLiveLinks> {
    return this.video.live(q.id);
  }

  /** The live stream's playlist (no `file`) and its segments (`file=seg-N.ts`), for a signed link. */
  @Get('hls')
  @SignedQuery
  @ApiQuery({ name: 'file', type: String, required: false, description: 'A segment the playlist names; none for the playlist' })
  @ApiProduces('application/vnd.apple.mpegurl', 'video/mp2t')
  async hls(@Req() req: AppRequest, @Res() reply: FastifyReply): Promise<void> {
    const { file, ...signed } = req.query as Record<string, unknown>;
    const cameraId = this.liveLinks.verify(signed);
    if (cameraId === null) throw AppException.forbidden('mediaLinkInvalid');
    if (file === undefined) {
      const { id, expires, signature } = signed as Record<string, string>;
      return sendPart(reply, await this.streams.playlist(cameraId, new URLSearchParams({ id, expires, signature }).toString()));
    }
    if (typeof file !== 'string') throw AppException.notFound();
    sendPart(reply, await this.streams.segment(cameraId, file));
  }

  /** The picture now, as a JPEG, for a signed link. */
  @Get('snapshot')
  @SignedQuery
  @ApiProduces('image/jpeg')
  async snapshot(@Req() req: AppRequest, @Res() reply: FastifyReply): Promise<void> {
    const cameraId = this.snapshotLinks.verify(req.query as Record<string, unknown>);
    if (cameraId === null) throw AppException.forbidden('mediaLinkInvalid');
    sendPart(reply, await this.streams.snapshot(cameraId));
  }
}
