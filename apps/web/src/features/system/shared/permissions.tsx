import { Badge, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Button } from '@sc/contracts';

const KNOWN_PERMISSIONS = ['Admin', 'Home', 'editor', 'visit'];

/** Known permissions in menu order, then any others by name. */
function byMenuOrder(a: string, b: string): number {
  const rank = (n: string) => (KNOWN_PERMISSIONS.includes(n) ? KNOWN_PERMISSIONS.indexOf(n) : KNOWN_PERMISSIONS.length);
  return rank(a) - rank(b) || a.localeCompare(b);
}

/** A permission name as the interface language says it; a name this console does not know is shown as stored. */
export function usePermissionLabel(): (name: string) => string {
  const { t } = useTranslation();
  return (name) => (KNOWN_PERMISSIONS.includes(name) ? t(`system:permissions.${name}`) : name);
}

export function useButtonLabel(): (button: Button) => string {
  const { t } = useTranslation();
  return (button) => t(`system:buttons.${button}`, { defaultValue: button });
}

/** The permissions of a group or user: every permission for an administrator role, otherwise one badge per name. */
export function PermissionBadges({ isAdmin, names }: { isAdmin: boolean; names: readonly string[] }) {
  const { t } = useTranslation();
  const label = usePermissionLabel();
  if (isAdmin) {
    return (
      <Badge variant="light" color="grape" radius="sm" tt="none" miw="max-content">
        {t('system:permissions.all')}
      </Badge>
    );
  }
  if (names.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('system:permissions.none')}
      </Text>
    );
  }
  return (
    <Group gap={4} wrap="wrap">
      {[...names].sort(byMenuOrder).map((name) => (
        <Badge
          key={name}
          variant="light"
          radius="sm"
          tt="none"
          miw="max-content"
          color={name === 'editor' ? 'blue' : name === 'visit' ? 'teal' : 'gray'}
        >
          {label(name)}
        </Badge>
      ))}
    </Group>
  );
}

/** Administrator or general, as a badge. */
export function RoleTypeBadge({ isAdmin }: { isAdmin: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge variant="dot" color={isAdmin ? 'grape' : 'blue'} radius="sm" tt="none" miw="max-content">
      {isAdmin ? t('system:roleType.admin') : t('system:roleType.general')}
    </Badge>
  );
}
