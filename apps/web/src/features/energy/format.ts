/** Energy is stored in Wh: below a kWh it shows in Wh, else in kWh. */
export function formatEnergy(wh: number): string {
  const abs = Math.abs(wh);
  if (abs < 1000) return `${wh.toLocaleString(undefined, { maximumFractionDigits: abs < 10 ? 2 : 1 })} Wh`;
  return `${(wh / 1000).toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 })} kWh`;
}

/** The saving as a share of full-power energy; a dash when nothing was lit. */
export function savingShare(savingWh: number, fullWh: number): string {
  return fullWh > 0 ? `${((savingWh / fullWh) * 100).toFixed(1)} %` : '—';
}
