/**
 * How a refusal names what it refuses: the first `max` items (quoted when they are names that may hold commas), the
 * rest counted, so a message stays readable however many there are.
 */
export function shownList(items: readonly (string | number)[], max: number, quote = false): string {
  const shown = items.slice(0, max).map((item) => (quote ? `"${item}"` : String(item)));
  return shown.join(', ') + (items.length > max ? ` (+${items.length - max})` : '');
}
