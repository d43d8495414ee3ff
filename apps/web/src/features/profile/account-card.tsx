import { Avatar, Badge, Card, DataList, Divider, Group, Stack, Text, Title } from '@mantine/core';
import { IconCheck, IconShieldCheck, IconUser } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/auth/session-store';
import { reachableButtons } from '@/navigation/permitted-routes';
import { ROUTE_TABLE } from '@/navigation/route-table';

/** Name, avatar (initials when there is none), introduction, account type, roles and the granted operations the user can reach. */
export function AccountCard() {
  const { t } = useTranslation();
  const name = useSession((s) => s.name);
  const avatar = useSession((s) => s.avatar);
  const introduction = useSession((s) => s.introduction);
  const isAdmin = useSession((s) => s.isAdmin);
  const roles = useSession((s) => s.roles);
  const granted = useSession((s) => s.buttons);
  const buttons = reachableButtons(ROUTE_TABLE, roles, granted);

  return (
    <Card withBorder radius="md" padding="lg" h="100%" data-testid="profile-account">
      <Stack gap="lg">
        <Group gap="md" wrap="nowrap">
          <Avatar src={avatar || null} name={name} color="initials" size={72} radius="xl" alt={name} data-testid="profile-avatar" />
          <Stack gap={6} miw={0}>
            <Title order={3} lh={1.2} style={{ overflowWrap: 'anywhere' }} data-testid="profile-name">
              {name}
            </Title>
            <Group gap={6}>
              <Badge
                variant="light"
                color={isAdmin ? 'brand' : 'gray'}
                leftSection={isAdmin ? <IconShieldCheck size={14} /> : <IconUser size={14} />}
                tt="none"
                data-testid="profile-account-type"
              >
                {isAdmin ? t('profile:account.administrator') : t('profile:account.standardUser')}
              </Badge>
            </Group>
          </Stack>
        </Group>

        <Divider />

        <DataList orientation="vertical" gap="md" size="sm">
          <DataList.Item>
            <DataList.ItemLabel>
              <Text size="xs" c="dimmed" fw={600} tt="uppercase">
                {t('profile:account.roles')}
              </Text>
            </DataList.ItemLabel>
            <DataList.ItemValue>
              <Group gap={6} data-testid="profile-roles">
                {roles.map((role) => (
                  <Badge key={role} variant="outline" radius="sm" tt="none">
                    {t(`profile:roles.${role}`, { defaultValue: role })}
                  </Badge>
                ))}
              </Group>
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>
              <Text size="xs" c="dimmed" fw={600} tt="uppercase">
                {t('profile:account.introduction')}
              </Text>
            </DataList.ItemLabel>
            <DataList.ItemValue>
              {introduction ? (
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="profile-introduction">
                  {introduction}
                </Text>
              ) : (
                <Text size="sm" c="dimmed">
                  {t('profile:account.noIntroduction')}
                </Text>
              )}
            </DataList.ItemValue>
          </DataList.Item>
        </DataList>

        <Divider />

        <Stack gap={8}>
          <div>
            <Text size="sm" fw={600}>
              {t('profile:account.buttons')}
            </Text>
            <Text size="xs" c="dimmed">
              {t('profile:account.buttonsHint')}
            </Text>
          </div>
          {buttons.length > 0 ? (
            <Group gap={6} data-testid="profile-buttons">
              {buttons.map((button) => (
                <Badge key={button} variant="light" color="teal" radius="sm" tt="none" leftSection={<IconCheck size={12} />}>
                  {t(`profile:buttons.${button}`, { defaultValue: button })}
                </Badge>
              ))}
            </Group>
          ) : (
            <Text size="sm" c="dimmed">
              {t('profile:account.noButtons')}
            </Text>
          )}
        </Stack>
      </Stack>
    </Card>
  );
}
