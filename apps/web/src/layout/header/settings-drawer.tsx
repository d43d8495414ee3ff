import { CheckIcon, ColorSwatch, Drawer, Group, Stack, Switch, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { THEME_PRESETS, useSettings, type Settings } from '@/settings/settings-store';

const SWITCHES: { key: keyof Pick<Settings, 'tagsView' | 'fixedHeader' | 'sidebarLogo' | 'pinyinSearch'>; label: string }[] = [
  { key: 'tagsView', label: 'tagsView' },
  { key: 'fixedHeader', label: 'fixedHeader' },
  { key: 'sidebarLogo', label: 'sidebarLogo' },
  { key: 'pinyinSearch', label: 'pinyinSearch' },
];

/** Spec section 1: visited tabs, fixed header, sidebar logo and pinyin search, all on by default; theme colour. */
export function SettingsDrawer({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const settings = useSettings();
  return (
    <Drawer opened={opened} onClose={onClose} position="right" size={300} title={t('common:settings.title')} data-testid="settings-drawer">
      <Stack gap="lg">
        <div>
          <Text size="sm" fw={500} mb={8}>
            {t('common:settings.themeColor')}
          </Text>
          <Group gap={8}>
            {THEME_PRESETS.map((color) => (
              <ColorSwatch
                key={color}
                component="button"
                color={color}
                size={26}
                onClick={() => settings.set('themeColor', color)}
                aria-label={color}
                aria-pressed={settings.themeColor === color}
                style={{ color: '#fff', cursor: 'pointer' }}
                data-testid={`theme-${color}`}
              >
                {settings.themeColor === color && <CheckIcon size={12} />}
              </ColorSwatch>
            ))}
          </Group>
        </div>
        {SWITCHES.map(({ key, label }) => (
          <Switch
            key={key}
            label={t(`common:settings.${label}`)}
            checked={settings[key]}
            onChange={(event) => settings.set(key, event.currentTarget.checked)}
            labelPosition="left"
            styles={{ body: { justifyContent: 'space-between' }, labelWrapper: { flex: 1 } }}
            data-testid={`setting-${key}`}
          />
        ))}
      </Stack>
    </Drawer>
  );
}
