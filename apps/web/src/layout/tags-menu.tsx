import { ActionIcon, Menu } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { VisitedTag } from '@/settings/tags-store';

interface TagsMenuProps {
  /** Opened by a right click on a tab (the target), or by its own button for the current tab. */
  opened: boolean;
  target: VisitedTag | null;
  onDismiss: () => void;
  onRefresh: (tag: VisitedTag) => void;
  onClose: (tag: VisitedTag) => void;
  onCloseOthers: (tag: VisitedTag) => void;
  onCloseAll: () => void;
}

/** Refresh, close, close others and close all, for the tab right-clicked or the current one. */
export function TagsMenu({ opened, target, onDismiss, onRefresh, onClose, onCloseOthers, onCloseAll }: TagsMenuProps) {
  const { t } = useTranslation();
  return (
    <Menu opened={opened || undefined} onChange={(o) => !o && onDismiss()} position="bottom-end" withArrow>
      <Menu.Target>
        <ActionIcon size="sm" color="gray" ml="auto" aria-label={t('common:tags.actions')} data-testid="tags-menu" onClick={onDismiss}>
          <IconChevronDown size={16} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {target && <Menu.Item onClick={() => onRefresh(target)}>{t('common:tags.refresh')}</Menu.Item>}
        {target && <Menu.Item onClick={() => onClose(target)}>{t('common:tags.close')}</Menu.Item>}
        {target && (
          <Menu.Item onClick={() => onCloseOthers(target)} data-testid="tags-close-others">
            {t('common:tags.closeOthers')}
          </Menu.Item>
        )}
        <Menu.Item onClick={onCloseAll} data-testid="tags-close-all">
          {t('common:tags.closeAll')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
