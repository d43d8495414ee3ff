import { confirmCommand } from '@/components/confirm';
import { devicesInRegion } from './api';

/** Devices picked one by one, or every device of a region and its sub-regions. */
export type CommandTarget = { ids: readonly number[] } | { regionId: number };

/**
 * Confirms a command before it leaves: the text (`devices` for picked devices, `region` for a region's) names how many
 * devices it reaches, a region's counted by the family's list (`listPath`) just before asking. Resolves false when the
 * operator cancels or the count could not be read (that refusal is already on screen).
 */
export async function confirmTargetCommand(
  to: CommandTarget,
  {
    listPath,
    devices,
    region,
    confirm,
    testId,
  }: { listPath: string; devices: (count: number) => string; region: (count: number) => string; confirm?: string; testId?: string },
): Promise<boolean> {
  const detail = 'ids' in to ? devices(to.ids.length) : await devicesInRegion(listPath, to.regionId).then(region, () => null);
  return detail !== null && confirmCommand(detail, { confirm, testId });
}
