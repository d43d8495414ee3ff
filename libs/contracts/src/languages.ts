export const LANGUAGES = ['zh-CN', 'en-US', 'es', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en-US';

/** Picks the first supported language of an Accept-Language header (or a cookie value); unknown falls back to en-US. */
export function resolveLanguage(header: string | null | undefined): Language {
  if (!header) return DEFAULT_LANGUAGE;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.trim().toLowerCase(), q: q ? Number(q.slice(2)) || 0 : 1, index };
    })
    .filter((r) => r.tag && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const primary = tag.split('-')[0];
    if (primary === 'zh') return 'zh-CN';
    if (primary === 'en') return 'en-US';
    if (primary === 'es') return 'es';
    if (primary === 'ja') return 'ja';
  }
  return DEFAULT_LANGUAGE;
}
