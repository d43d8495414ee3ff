import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import {
  AD_MUSIC_TYPES,
  AD_ZONE_TYPES,
  AdAuditStatus,
  MaterialStatus,
  MaterialType,
  adProblems,
  videoItemSeconds,
  type AdDetail,
  type AdMaterial,
  type AdRequest,
  type AdRow,
  type PageResult,
} from '@sc/contracts';
import type { MessageKey } from '@sc/i18n';
import { AppException, type FieldProblem } from '../common/app-exception';
import type { Caller } from '../common/request-context';
import { Where, likeContains, newestFirstPage } from '../common/sql';
import { SIGNAGE_AD_SENT, stillBeingSent } from '../dispatch/open-sends';
import { InjectDb } from '../infra/database';
import { MaterialCoverLinks } from '../signage-materials/material-links';
import type { AdAddDto, AdAuditDto, AdDeleteDto, AdEditDto, AdPageDto } from './dto/ads.dto';
import { AD_PLAN_USAGE, type AdPlanUsage } from './ad-plan-usage';
import { shownList } from '../common/shown-list';

/** Names shown in a refusal at most. */
const NAMES_SHOWN = 5;

const AD_COLUMNS = `a.id, a.name, a.cover_material_id AS "coverMaterialId", a.orientation, a.total_duration AS "totalDuration",
  a.split_count AS "splitCount", a.zones, a.music, a.audit_required AS "auditRequired", a.audit_status AS "auditStatus",
  a.creator AS "createdBy", a.created_at AS "createdAt", a.updated_at AS "updatedAt",
  c.sha256 AS "coverSha256", c.file_size::float8 AS "coverFileSize", (c.cover_path IS NOT NULL) AS "hasCover"`;
const AD_FROM = `signage_ad a JOIN signage_material c ON c.id = a.cover_material_id`;

type StoredAd = Omit<AdRow, 'coverUrl'> & { coverSha256: string; coverFileSize: number; hasCover: boolean };

interface StoredMaterial {
  id: number;
  name: string;
  type: MaterialType;
  status: MaterialStatus;
  duration: number | null;
  sha256: string;
  fileSize: number;
  hasCover: boolean;
}

const MATERIAL_COLUMNS = `m.id, m.name, m.type, m.status, m.duration_seconds::float8 AS duration, m.sha256,
  m.file_size::float8 AS "fileSize", (m.cover_path IS NOT NULL) AS "hasCover"`;

const quoted = (names: string[]): string => shownList(names, NAMES_SHOWN, true);

/** Every material an ad names, once each: its cover, its zones' items and its music. */
function materialIdsOf(ad: AdRequest): number[] {
  return [...new Set([ad.coverMaterialId as number, ...ad.zones.flatMap((zone) => zone.map((item) => item.materialId)), ...ad.music])];
}

/**
 * Floor-screen ads (docs/signage-ads.md): checked with adProblems, the rules the editor shares, then against the
 * materials they name (each exists, is available and of the type its place takes; a video plays at most its length),
 * saved with a link row per material, listed, audited by administrators, and deleted unless an ad plan uses them.
 */
@Injectable()
export class AdsService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    private readonly coverLinks: MaterialCoverLinks,
    @Inject(AD_PLAN_USAGE) private readonly plans: AdPlanUsage,
  ) {}

  async page(q: AdPageDto): Promise<PageResult<AdRow>> {
    const where = new Where()
      .addIf(q.name, `lower(a.name) LIKE ?`, q.name && likeContains(q.name))
      .addIf(q.orientation, `a.orientation = ?`)
      .addIf(q.auditStatus, `a.audit_status = ?`);
    const page = await newestFirstPage<StoredAd>(this.db, { select: AD_COLUMNS, from: AD_FROM, alias: 'a', where }, q);
    const now = Date.now();
    return { ...page, list: page.list.map((row) => this.shown(row, now)) };
  }

  async detail(id: number, db: DataSource | EntityManager = this.db): Promise<AdDetail> {
    const [row]: StoredAd[] = await db.query(`SELECT ${AD_COLUMNS} FROM ${AD_FROM} WHERE a.id = $1`, [id]);
    if (!row) throw AppException.notFound();
    const stored: StoredMaterial[] = await db.query(
      `SELECT ${MATERIAL_COLUMNS} FROM signage_ad_material l JOIN signage_material m ON m.id = l.material_id WHERE l.ad_id = $1 ORDER BY m.id`,
      [id],
    );
    const now = Date.now();
    const materials: AdMaterial[] = stored.map((m) => ({
      id: m.id,
      name: m.name,
      type: m.type,
      duration: m.duration,
      status: m.status,
      coverUrl: m.hasCover ? this.coverLinks.stable(m, now) : null,
    }));
    return { ...this.shown(row, now), materials };
  }

  private shown({ coverSha256, coverFileSize, hasCover, ...row }: StoredAd, now: number): AdRow {
    const cover = { id: row.coverMaterialId, sha256: coverSha256, fileSize: coverFileSize };
    return { ...row, coverUrl: hasCover ? this.coverLinks.stable(cover, now) : null };
  }

  async add(caller: Caller, dto: AdAddDto): Promise<AdDetail> {
    return this.db.transaction(async (tx) => {
      const ad = await this.checked(tx, dto);
      const [{ id }]: { id: number }[] = await tx.query(
        `INSERT INTO signage_ad (name, cover_material_id, orientation, total_duration, split_count, zones, music, audit_required,
                                 created_by, creator)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
        [...adValues(ad), caller.userId, caller.username],
      );
      await this.link(tx, id, ad);
      return this.detail(id, tx);
    });
  }

  /** Saves the ad's new content; an audited ad is not audited any more (what was audited changed). */
  async edit(dto: AdEditDto): Promise<AdDetail> {
    return this.db.transaction(async (tx) => {
      const [row]: { id: number }[] = await tx.query(`SELECT id FROM signage_ad WHERE id = $1 FOR UPDATE`, [dto.id]);
      if (!row) throw AppException.notFound();
      const ad = await this.checked(tx, dto);
      await tx.query(
        `UPDATE signage_ad SET name = $1, cover_material_id = $2, orientation = $3, total_duration = $4, split_count = $5, zones = $6,
                music = $7, audit_required = $8, audit_status = '${AdAuditStatus.NotAudited}', updated_at = now()
          WHERE id = $9`,
        [...adValues(ad), dto.id],
      );
      await tx.query(`DELETE FROM signage_ad_material WHERE ad_id = $1`, [dto.id]);
      await this.link(tx, dto.id, ad);
      return this.detail(dto.id, tx);
    });
  }

  private async link(tx: EntityManager, adId: number, ad: AdRequest): Promise<void> {
    await tx.query(`INSERT INTO signage_ad_material (ad_id, material_id) SELECT $1, unnest($2::int[])`, [adId, materialIdsOf(ad)]);
  }

  /**
   * The ad as it will be kept, or a refusal naming every problem: adProblems first (the editor's own rules), then the
   * materials, read and locked FOR SHARE so none is deleted or made unavailable before the ad is saved.
   */
  private async checked(tx: EntityManager, dto: AdAddDto): Promise<AdRequest> {
    const input = { ...dto, music: dto.music ?? [], auditRequired: dto.auditRequired ?? false };
    const problems = adProblems(input);
    if (problems.length > 0) throw refusal(problems.map((p) => ({ field: p.field, key: p.key as MessageKey, params: p.params })));
    const ad: AdRequest = {
      name: input.name.trim(),
      coverMaterialId: input.coverMaterialId,
      orientation: input.orientation,
      totalDuration: input.totalDuration,
      splitCount: input.splitCount,
      zones: input.zones.map((zone) => zone.map(({ materialId, seconds }) => ({ materialId, seconds }))),
      music: input.music,
      auditRequired: input.auditRequired === true,
    };
    const ids = materialIdsOf(ad);
    const rows: StoredMaterial[] = await tx.query(
      `SELECT ${MATERIAL_COLUMNS} FROM signage_material m WHERE m.id = ANY($1::int[]) ORDER BY m.id FOR SHARE`,
      [ids],
    );
    const byId = new Map(rows.map((m) => [m.id, m]));
    const missing = ids.filter((id) => !byId.has(id));
    if (missing.length > 0) throw AppException.badRequest('unknownMedia', { ids: shownList(missing, 10) });
    const unavailable = rows.filter((m) => m.status !== MaterialStatus.Available);
    if (unavailable.length > 0) throw AppException.badRequest('adMaterialsUnavailable', { names: quoted(unavailable.map((m) => m.name)) });
    const fields: FieldProblem[] = [];
    if (byId.get(ad.coverMaterialId!)!.type !== MaterialType.Image) fields.push({ field: 'coverMaterialId', key: 'adCoverNotImage' });
    ad.zones.forEach((zone, z) => {
      const wrong = zone.map((item) => byId.get(item.materialId)!).filter((m) => !AD_ZONE_TYPES.includes(m.type));
      if (wrong.length > 0) fields.push({ field: `zones[${z}]`, key: 'adZoneTakesPictures', params: { names: quoted(wrong.map((m) => m.name)) } });
      zone.forEach((item, i) => {
        const m = byId.get(item.materialId)!;
        if (m.type === MaterialType.Video && item.seconds > videoItemSeconds(m.duration!))
          fields.push({ field: `zones[${z}][${i}].seconds`, key: 'adVideoTooLong', params: { name: m.name, max: videoItemSeconds(m.duration!) } });
      });
    });
    const notMusic = ad.music.map((id) => byId.get(id)!).filter((m) => !AD_MUSIC_TYPES.includes(m.type));
    if (notMusic.length > 0) fields.push({ field: 'music', key: 'adMusicTakesMusic', params: { names: quoted(notMusic.map((m) => m.name)) } });
    if (fields.length > 0) throw refusal(fields);
    return ad;
  }

  /**
   * Deletes the ads, all or none: refused for an empty selection, an ad that does not exist, one an ad plan uses, or
   * one an open publication still names.
   */
  async remove(dto: AdDeleteDto): Promise<void> {
    const ids = [...new Set(dto.ids)];
    if (ids.length === 0) throw AppException.badRequest('adBatchDeleteEmpty');
    await this.db.transaction(async (tx) => {
      const rows: { id: number }[] = await tx.query(`SELECT id FROM signage_ad WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE`, [ids]);
      if (rows.length !== ids.length) throw AppException.notFound();
      const plans = await this.plans.plansUsing(tx, ids);
      if (plans.length > 0) throw AppException.conflict('adInPlans', { names: quoted(plans) });
      const sending = await stillBeingSent(tx, SIGNAGE_AD_SENT, ids);
      if (sending) throw sending;
      await tx.query(`DELETE FROM signage_ad WHERE id = ANY($1::int[])`, [ids]);
    });
  }

  async audit(dto: AdAuditDto): Promise<AdDetail> {
    const [, affected] = (await this.db.query(`UPDATE signage_ad SET audit_status = $2 WHERE id = $1`, [dto.id, dto.auditStatus])) as [
      unknown,
      number,
    ];
    if (!affected) throw AppException.notFound();
    return this.detail(dto.id);
  }
}

function refusal(fields: FieldProblem[]): AppException {
  return AppException.badRequest('validationField', {}, fields);
}

function adValues(ad: AdRequest): unknown[] {
  return [
    ad.name,
    ad.coverMaterialId,
    ad.orientation,
    ad.totalDuration,
    ad.splitCount,
    JSON.stringify(ad.zones),
    JSON.stringify(ad.music),
    ad.auditRequired,
  ];
}
