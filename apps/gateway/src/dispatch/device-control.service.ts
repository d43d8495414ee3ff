import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { FamilyDeclaration, FamilyName, LampControlResult } from '@sc/contracts';
import { commandLedger } from '@sc/device-runtime';
import type { MessageKey } from '@sc/i18n';
import { AppException } from '../common/app-exception';
import { devicesByIds, devicesOfRegion } from '../common/device-selection';
import { isForeignKeyViolation } from '../common/pg-errors';
import type { Caller } from '../common/request-context';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { InjectDb } from '../infra/database';
import { sqlOf } from '../infra/sql';
import { assertMayControl } from './dispatch.service';

/**
 * The devices a control action is for: the given ids, every device of the family in a region and below it, or (for a
 * family with groups of its own) every device of the given groups. Exactly one of them.
 */
export interface DeviceSelection {
  ids?: readonly number[] | null;
  regionId?: number | null;
  groupIds?: readonly number[] | null;
}

/** How a family words a selection it refuses (its own catalogue messages), and how it reads its groups. */
export interface SelectionWording {
  /** None of ids, a region or groups; or an empty list of ids or groups. */
  empty: MessageKey;
  /** More than one of them. */
  ambiguous: MessageKey;
  /** Ids that are not devices of the family (`shown` lists them). */
  unknown: (shown: string) => AppException;
  /** A region without devices of the family. */
  emptyRegion: () => AppException;
  /** A selected device was deleted while the dispatch was being written. */
  gone: (byIds: boolean) => AppException;
  /**
   * The family's groups: the devices of the given groups, locked like devicesByIds, each group locked against
   * changes until the transaction ends; refuses unknown and empty groups. A family without it refuses groupIds.
   */
  groups?: (tx: EntityManager, groupIds: readonly number[]) => Promise<number[]>;
}

/** Which of ids, a region or groups a selection gives; refuses none, an empty list, or more than one (in the family's words). */
export function checkSelection(selection: DeviceSelection, wording: SelectionWording): 'ids' | 'region' | 'groups' {
  const given = (value: unknown) => value !== undefined && value !== null;
  const byIds = given(selection.ids);
  const byRegion = given(selection.regionId);
  const byGroups = given(selection.groupIds);
  if (Number(byIds) + Number(byRegion) + Number(byGroups) > 1) throw AppException.badRequest(wording.ambiguous);
  if (byGroups && !wording.groups) throw AppException.field('groupIds', 'invalidValue');
  if (!byRegion && (byIds ? selection.ids! : (selection.groupIds ?? [])).length === 0) throw AppException.badRequest(wording.empty);
  return byIds ? 'ids' : byRegion ? 'region' : 'groups';
}

/**
 * The devices of a family a selection names, locked against deletion until the transaction ends: what a dispatch is
 * for, and what a family's own settings of many devices at once (the LED screens' daylight rule) apply to.
 */
export async function selectDevices(
  tx: EntityManager,
  family: FamilyDeclaration,
  selection: DeviceSelection,
  wording: SelectionWording,
): Promise<number[]> {
  switch (checkSelection(selection, wording)) {
    case 'ids':
      return devicesByIds(tx, family, selection.ids ?? [], wording.unknown);
    case 'groups':
      return wording.groups!(tx, selection.groupIds!);
    case 'region':
      return devicesOfRegion(tx, family, selection.regionId as number, wording.emptyRegion);
  }
}

/** Something written in a dispatch's transaction once its id is known; throwing refuses the whole dispatch. */
export type DispatchRecorded = (tx: EntityManager, dispatchId: string) => Promise<void>;

/** Both records, in order, in the dispatch's transaction (either may be absent). */
export function andRecorded(first: DispatchRecorded | undefined, then: DispatchRecorded | undefined): DispatchRecorded | undefined {
  if (!first || !then) return first ?? then;
  return async (tx, dispatchId) => {
    await first(tx, dispatchId);
    await then(tx, dispatchId);
  };
}

/** What a dispatch sends, decided once its devices are selected and locked (in the dispatch's transaction). */
export interface DispatchContent {
  params: Record<string, unknown>;
  /** Per-device command parameters, in the order of the device ids, for commands that differ by device. */
  itemParams?: readonly unknown[];
  /** Records what the dispatch is for (a broadcast task), in its transaction, once its id is known. */
  recorded?: DispatchRecorded;
}

/**
 * One control action of any family: the button the family declares for the action, the selection (ids, a region or
 * groups, or a function that works them out in the transaction),
 * the devices locked against deletion, and the dispatch, its rows and its hand-over to the family's worker written
 * in one transaction. Any problem refuses the whole request, so a refused request dispatches nothing.
 */
@Injectable()
export class DeviceControlService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async dispatch(
    caller: Caller,
    family: FamilyDeclaration & { family: FamilyName },
    selection: DeviceSelection | ((tx: EntityManager) => Promise<DeviceSelection>),
    action: string,
    wording: SelectionWording,
    content: (tx: EntityManager, deviceIds: number[]) => Promise<DispatchContent> | DispatchContent,
  ): Promise<LampControlResult> {
    assertMayControl(caller, family.family, action);
    let byIds = typeof selection === 'function' ? false : checkSelection(selection, wording) === 'ids';
    try {
      const dispatchId = await this.db.transaction(async (tx) => {
        // A selection worked out from a record (an ad plan's screens) is read in the transaction, the record locked.
        let chosen = selection as DeviceSelection;
        if (typeof selection === 'function') {
          chosen = await selection(tx);
          byIds = checkSelection(chosen, wording) === 'ids';
        }
        const deviceIds = await selectDevices(tx, family, chosen, wording);
        const { params, itemParams, recorded } = await content(tx, deviceIds);
        const id = await this.dispatchIn(tx, caller, family, action, deviceIds, { params, itemParams });
        await recorded?.(tx, id);
        return id;
      });
      return { dispatchId };
    } catch (err) {
      // The row locks make this unlikely: a device deleted while its dispatch was being written.
      if (isForeignKeyViolation(err)) throw wording.gone(byIds);
      throw err;
    }
  }

  /**
   * A dispatch written in the caller's transaction to devices it has already chosen and locked (a broadcast task's
   * terminals told to forget it when it is changed or deleted); the same button check as `dispatch`.
   */
  async dispatchIn(
    tx: EntityManager,
    caller: Caller,
    family: FamilyDeclaration & { family: FamilyName },
    action: string,
    deviceIds: readonly number[],
    { params, itemParams }: Omit<DispatchContent, 'recorded'>,
  ): Promise<string> {
    assertMayControl(caller, family.family, action);
    return commandLedger.create(sqlOf(tx), {
      family,
      action,
      params,
      itemParams,
      createdBy: caller.username,
      deviceIds,
      ttlSeconds: this.config.dispatchTtlSeconds,
    });
  }
}
