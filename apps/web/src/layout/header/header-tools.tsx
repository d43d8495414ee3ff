import { ActionIcon, Avatar, Group, Menu, Select, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { useFullscreenDocument } from '@mantine/hooks';
import { Link, useNavigate, useRouterState } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import {
  IconArrowsMaximize,
  IconArrowsMinimize,
  IconChevronDown,
  IconLanguage,
  IconLayoutDashboard,
  IconLogout,
  IconRefresh,
  IconSettings,
  IconTextSize,
  IconUser,
} from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ALARM_EVENT_ROLES } from '@sc/contracts';
import { useSession } from '@/auth/session-store';
import { useLogout } from '@/auth/use-logout';
import { currentLanguage, loadNamespaces, switchLanguage } from '@/i18n';
import { LANGUAGE_NAMES, UI_LANGUAGES } from '@/i18n/languages';
import { notifyError, notifySuccess } from '@/components/notify';
import { ELEMENT_SIZES, useSettings } from '@/settings/settings-store';
import { REFRESH_INTERVALS, useAutoRefresh } from '@/settings/auto-refresh';
import { HeaderSearch } from './header-search';
import { ErrorLogButton } from './error-log-button';

// The alarm agent's mode, for the alarm roles (it shows only for an agent of a user group).
const AgentMenu = lazy(() => loadNamespaces(['alarmIntercom']).then(() => import('@/features/alarm-intercom/agent-menu')));

// Opened rarely: loaded on first use.
const SettingsDrawer = lazy(() => import('./settings-drawer').then((m) => ({ default: m.SettingsDrawer })));

const SIZE_LABEL = { default: 'sizeDefault', medium: 'sizeMedium', small: 'sizeSmall', mini: 'sizeMini' } as const;

/**
 * The navbar's tools (spec section 2): refresh, auto refresh, search, error log, fullscreen, size, language, settings
 * and the user menu. Loaded beside the page rather than before it, so they never hold up a page's first paint.
 */
export function HeaderTools({ isMobile }: { isMobile: boolean }) {
  const { t } = useTranslation();
  const [settingsOpened, setSettingsOpened] = useState(false);
  const alarmRole = useSession((s) => s.roles.some((role) => (ALARM_EVENT_ROLES as readonly string[]).includes(role)));
  return (
    <Group gap={4} wrap="nowrap">
      {alarmRole && (
        <Suspense fallback={null}>
          <AgentMenu />
        </Suspense>
      )}
      <HeaderSearch />
      <ErrorLogButton />
      <RefreshButton />
      {!isMobile && <AutoRefreshSelect />}
      {!isMobile && <FullscreenButton />}
      {!isMobile && <SizeMenu />}
      <LanguageMenu />
      <Tooltip label={t('common:nav.settings')}>
        <ActionIcon size="lg" color="gray" onClick={() => setSettingsOpened(true)} aria-label={t('common:nav.settings')} data-testid="open-settings">
          <IconSettings size={20} />
        </ActionIcon>
      </Tooltip>
      <UserMenu />
      {settingsOpened && (
        <Suspense fallback={null}>
          <SettingsDrawer opened onClose={() => setSettingsOpened(false)} />
        </Suspense>
      )}
    </Group>
  );
}

/** Reopens the current page from scratch, with fresh data. */
function RefreshButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const href = useRouterState({ select: (s) => s.location.href });
  return (
    <Tooltip label={t('common:nav.refresh')}>
      <ActionIcon
        size="lg"
        color="gray"
        aria-label={t('common:nav.refresh')}
        data-testid="refresh"
        onClick={() => {
          void queryClient.invalidateQueries({ type: 'active' });
          void navigate({ href: `/redirect${href}`, replace: true });
        }}
      >
        <IconRefresh size={20} />
      </ActionIcon>
    </Tooltip>
  );
}

/**
 * A width that shows the longest of `labels` whole beside the select's icon and chevron, in any language: a CJK
 * character takes about two `ch`, any other one.
 */
function fitWidth(labels: string[]): string {
  const widest = Math.max(...labels.map((label) => [...label].reduce((n, c) => n + (c.codePointAt(0)! >= 0x2e80 ? 2 : 1), 0)));
  return `calc(${widest}ch + 62px)`;
}

function AutoRefreshSelect() {
  const { t } = useTranslation();
  const { isAutoRefresh, intervalTime, choose } = useAutoRefresh();
  const data = [
    { value: 'off', label: t('common:nav.autoRefreshOff') },
    ...REFRESH_INTERVALS.map((s) => ({ value: String(s), label: t('common:nav.everySeconds', { seconds: s }) })),
  ];
  return (
    <Select
      size="xs"
      w={fitWidth(data.map((d) => d.label))}
      data={data}
      value={isAutoRefresh ? String(intervalTime) : 'off'}
      onChange={(value) => choose(value && value !== 'off' ? Number(value) : null)}
      allowDeselect={false}
      aria-label={t('common:nav.autoRefresh')}
      leftSection={<IconRefresh size={14} />}
      data-testid="auto-refresh"
      comboboxProps={{ withinPortal: true }}
    />
  );
}

function FullscreenButton() {
  const { t } = useTranslation();
  const { toggle, fullscreen } = useFullscreenDocument();
  const label = t(fullscreen ? 'common:nav.exitFullscreen' : 'common:nav.fullscreen');
  return (
    <Tooltip label={label}>
      <ActionIcon
        size="lg"
        color="gray"
        aria-label={label}
        data-testid="fullscreen"
        onClick={() => {
          if (!document.fullscreenEnabled) {
            notifyError(t('common:nav.fullscreenUnsupported'));
            return;
          }
          void toggle();
        }}
      >
        {fullscreen ? <IconArrowsMinimize size={20} /> : <IconArrowsMaximize size={20} />}
      </ActionIcon>
    </Tooltip>
  );
}

function SizeMenu() {
  const { t } = useTranslation();
  const size = useSettings((s) => s.size);
  const set = useSettings((s) => s.set);
  return (
    <Menu position="bottom-end" withArrow>
      <Menu.Target>
        <Tooltip label={t('common:nav.size')}>
          <ActionIcon size="lg" color="gray" aria-label={t('common:nav.size')} data-testid="size-select">
            <IconTextSize size={20} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        {ELEMENT_SIZES.map((option) => (
          <Menu.Item
            key={option}
            disabled={option === size}
            onClick={() => {
              set('size', option);
              notifySuccess(t('common:nav.sizeSwitched'));
            }}
          >
            {t(`common:nav.${SIZE_LABEL[option]}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

function LanguageMenu() {
  const { t } = useTranslation();
  const current = currentLanguage();
  return (
    <Menu position="bottom-end" withArrow>
      <Menu.Target>
        <Tooltip label={t('common:nav.language')}>
          <ActionIcon size="lg" color="gray" aria-label={t('common:nav.language')} data-testid="language-select">
            <IconLanguage size={20} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        {UI_LANGUAGES.map((lng) => (
          <Menu.Item key={lng} disabled={lng === current} onClick={() => switchLanguage(lng)} data-testid={`language-${lng}`}>
            {LANGUAGE_NAMES[lng]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

function UserMenu() {
  const { t } = useTranslation();
  const name = useSession((s) => s.name);
  const avatar = useSession((s) => s.avatar);
  const logout = useLogout();
  return (
    <Menu position="bottom-end" withArrow>
      <Menu.Target>
        <UnstyledButton data-testid="user-menu" px={4} aria-label={t('common:nav.userMenu', { name })}>
          <Group gap={6} wrap="nowrap">
            <Avatar src={avatar || null} name={name} color="initials" size={30} radius="xl" />
            <Text size="sm" fw={500} visibleFrom="sm" maw={120} truncate>
              {name}
            </Text>
            <IconChevronDown size={14} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to="/" leftSection={<IconLayoutDashboard size={16} />}>
          {t('common:nav.dashboard')}
        </Menu.Item>
        <Menu.Item component={Link} to="/profile/inforManage" leftSection={<IconUser size={16} />}>
          {t('common:nav.profile')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => void logout()} data-testid="logout">
          {t('common:nav.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
