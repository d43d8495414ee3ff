import { useMemo, useState } from 'react';
import { Badge, Box, Group, NavLink, Paper, ScrollArea, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconMapPin, IconSearch, IconVideo, IconVideoOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { OnlineState, type CameraRow } from '@sc/contracts';
import { groupByRegion, matchesCamera } from './camera-groups';

/**
 * The cameras of the live wall, by region, searched by name, code or address; each one's online state live. Clicking a
 * camera puts it on the wall (`onPick`); one whose stream the console cannot find cannot be picked. `shown`: the
 * cameras on the wall now.
 */
export function CameraList({
  cameras,
  loading,
  shown,
  onPick,
}: {
  cameras: readonly CameraRow[];
  loading: boolean;
  shown: ReadonlySet<number>;
  onPick: (camera: CameraRow) => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const groups = useMemo(() => groupByRegion(cameras.filter((camera) => matchesCamera(camera, text))), [cameras, text]);
  return (
    <Paper withBorder p="md" radius="md" data-testid="video-wall-cameras">
      <Stack gap="xs">
        <Title order={5}>{t('video:wall.cameras')}</Title>
        <TextInput
          aria-label={t('video:wall.search')}
          placeholder={t('video:wall.search')}
          leftSection={<IconSearch size={16} />}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          data-testid="video-wall-search"
        />
        <ScrollArea.Autosize mah="calc(100vh - 260px)" type="auto" offsetScrollbars>
          {groups.length === 0 && (
            <Text size="sm" c="dimmed" py="sm" ta="center">
              {loading ? t('common:feedback.loading') : t('video:wall.empty')}
            </Text>
          )}
          {groups.map((group) => (
            <NavLink
              key={group.regionId ?? 'none'}
              label={
                <Group gap={6} wrap="nowrap" justify="space-between">
                  <Text size="sm" truncate>
                    {group.regionName ?? t('video:wall.noRegion')}
                  </Text>
                  {/* Online of all. */}
                  <Badge size="xs" variant="light" color="gray" style={{ flexShrink: 0 }}>
                    {`${group.online}/${group.cameras.length}`}
                  </Badge>
                </Group>
              }
              leftSection={<IconMapPin size={16} />}
              defaultOpened
              childrenOffset={12}
              data-testid="video-wall-region"
            >
              {group.cameras.map((camera) => (
                <CameraItem key={camera.id} camera={camera} onWall={shown.has(camera.id)} onPick={() => onPick(camera)} />
              ))}
            </NavLink>
          ))}
        </ScrollArea.Autosize>
      </Stack>
    </Paper>
  );
}

function CameraItem({ camera, onWall, onPick }: { camera: CameraRow; onWall: boolean; onPick: () => void }) {
  const { t } = useTranslation();
  const online = camera.networkStatus === OnlineState.Online;
  const item = (
    <NavLink
      label={camera.name}
      description={camera.code}
      active={onWall}
      disabled={!camera.hasStream}
      onClick={onPick}
      leftSection={
        <Box c={online ? 'teal' : 'gray'} style={{ display: 'flex' }} aria-label={t(`video:network.${camera.networkStatus}`)}>
          {camera.hasStream ? <IconVideo size={16} /> : <IconVideoOff size={16} />}
        </Box>
      }
      data-testid={`video-wall-camera-${camera.code}`}
      data-network={camera.networkStatus}
    />
  );
  if (camera.hasStream) return item;
  return (
    <Tooltip label={t('video:list.noStream')} multiline maw={260} position="right">
      <div>{item}</div>
    </Tooltip>
  );
}
