import { useState } from 'react';
import { NavLink, Paper, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { VIDEO_CATEGORY_LIST } from '@sc/contracts';
import type { VideoCategoryCode, VideoSubTypeCode } from './search';

/** The node chosen in the tree: everything (both undefined), a category, or one of its sub-types. */
export interface CategoryNode {
  category?: VideoCategoryCode;
  subType?: VideoSubTypeCode;
}

/**
 * The spec's equipment categories as a tree: All, each category, and its sub-types under it. Choosing a node filters
 * the list by its category and sub-type; a category opens as it is chosen, and folds when clicked again.
 */
export function CategoryTree({ value, onChoose }: { value: CategoryNode; onChoose: (node: CategoryNode) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set(value.category === undefined ? [] : [value.category]));
  const clickCategory = (code: VideoCategoryCode) => {
    const chosenAlone = value.category === code && value.subType === undefined;
    setOpen((current) => {
      const next = new Set(current);
      if (chosenAlone && next.has(code)) next.delete(code);
      else next.add(code);
      return next;
    });
    if (!chosenAlone) onChoose({ category: code });
  };
  return (
    <Paper withBorder p="sm" radius="md" data-testid="video-categories">
      <Stack gap="xs">
        <Title order={5}>{t('video:tree.title')}</Title>
        <NavLink label={t('video:tree.all')} active={value.category === undefined} onClick={() => onChoose({})} data-testid="video-category-all" />
        {VIDEO_CATEGORY_LIST.map((category) => {
          const code = category.code as VideoCategoryCode;
          const chosen = value.category === code;
          const label = t(`video:category.${category.key}`);
          if (category.types.length === 0)
            return (
              <NavLink key={code} label={label} active={chosen} onClick={() => onChoose({ category: code })} data-testid={`video-category-${code}`} />
            );
          return (
            <NavLink
              key={code}
              label={label}
              active={chosen && value.subType === undefined}
              opened={open.has(code)}
              onClick={() => clickCategory(code)}
              childrenOffset={12}
              data-testid={`video-category-${code}`}
            >
              {category.types.map((type) => (
                <NavLink
                  key={type.code}
                  label={t(`video:subType.${category.key}.${type.key}`)}
                  active={chosen && value.subType === type.code}
                  onClick={() => onChoose({ category: code, subType: type.code as VideoSubTypeCode })}
                  data-testid={`video-subtype-${code}-${type.code}`}
                />
              ))}
            </NavLink>
          );
        })}
      </Stack>
    </Paper>
  );
}
