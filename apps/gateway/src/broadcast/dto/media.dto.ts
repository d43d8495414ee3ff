import { IntersectionType } from '@nestjs/swagger';
import {
  BroadcastContentType,
  MEDIA_AUDIT_DECISIONS,
  MEDIA_AUDIT_REMARK_MAX,
  MEDIA_AUDIT_STATUSES,
  MEDIA_NAME_MAX,
  type MediaAuditRequest,
  type MediaAuditStatus,
  type MediaPageQuery,
  type MediaRenameRequest,
} from '@sc/contracts';
import { EnumField, IntField, PageDto, TextField } from '../../common/fields';

class MediaFilters {
  @TextField({ max: MEDIA_NAME_MAX, required: false, description: 'Part of the material name, any case' })
  materialName?: string;

  @EnumField(MEDIA_AUDIT_STATUSES, { required: false, description: 'pending, approved or rejected' })
  auditStatus?: MediaAuditStatus;

  @EnumField([BroadcastContentType.Audio, BroadcastContentType.Text], { required: false, description: '1 audio' })
  materialType?: BroadcastContentType;
}

export class MediaPageDto extends IntersectionType(PageDto, MediaFilters) implements MediaPageQuery {}

export class MediaRenameDto implements MediaRenameRequest {
  @IntField({ min: 1 })
  id!: number;

  @TextField({ max: MEDIA_NAME_MAX, example: 'Evening notice', emptyKey: 'nameEmpty' })
  materialName!: string;
}

export class MediaAuditDto implements MediaAuditRequest {
  @IntField({ min: 1 })
  id!: number;

  @EnumField(MEDIA_AUDIT_DECISIONS, { description: 'approved or rejected' })
  auditStatus!: MediaAuditRequest['auditStatus'];

  @TextField({ max: MEDIA_AUDIT_REMARK_MAX, required: false, description: 'Why; shown beside the status' })
  auditRemark?: string;
}
