import type { Language } from '@sc/contracts';

/**
 * SQL for a region's label in a language, by the region tree's rule (spec sections 3 and 9): its Chinese name in
 * Chinese, its English name in English, its own name otherwise or when that one is empty. `alias` is the joined
 * `region` row (NULL when the record has no region). An import takes any of the three names back.
 */
export function regionLabelSql(alias: string, lng: Language): string {
  const translated = lng === 'zh-CN' ? `${alias}.zh_cn` : lng === 'en-US' ? `${alias}.en_us` : null;
  return translated ? `coalesce(nullif(btrim(${translated}), ''), ${alias}.region_name)` : `${alias}.region_name`;
}
