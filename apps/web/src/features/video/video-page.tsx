import { useMemo, useState } from 'react';
import { AspectRatio, Badge, Box, Center, Grid, SegmentedControl, SimpleGrid, Text } from '@mantine/core';
import { IconVideo } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { OnlineState, VIDEO_GRID_SIZES, type CameraRow, type VideoGridSize } from '@sc/contracts';
import { PagePanel } from '@/components/page-panel';
import { useIsMobile } from '@/layout/use-is-mobile';
import { useEveryCamera, useLiveCameras } from './api';
import { CameraList } from './camera-list';
import { LivePlayer } from './live-player';
import { GRID_SIZE_KEY, clearCell, emptyWall, gridColumns, placeCamera, readGridSize, resizeWall, selectCell, type WallState } from './video-wall';

/** The grid size this browser last used. */
function storedGridSize(): VideoGridSize {
  try {
    return readGridSize(localStorage.getItem(GRID_SIZE_KEY), VIDEO_GRID_SIZES);
  } catch {
    return readGridSize(null, VIDEO_GRID_SIZES);
  }
}

function storeGridSize(size: VideoGridSize): void {
  try {
    localStorage.setItem(GRID_SIZE_KEY, String(size));
  } catch {
    // A browser that keeps nothing starts with the default next time.
  }
}

/**
 * A camera's online state over its picture (the list's network badge brings the list filters with it, which the wall
 * does not need).
 */
function OnlineBadge({ networkStatus }: { networkStatus: OnlineState }) {
  const { t } = useTranslation();
  return (
    <Badge
      size="xs"
      variant="dot"
      color={networkStatus === OnlineState.Online ? 'teal' : 'gray'}
      style={{ flexShrink: 0 }}
      data-testid="video-cell-network"
      data-network={networkStatus}
    >
      {t(`video:network.${networkStatus}`)}
    </Badge>
  );
}

/**
 * One cell of the wall: its camera's live picture (closing it empties the cell), or an invitation to pick one.
 * Clicking the cell chooses it for the next camera picked.
 */
function WallCell({
  camera,
  roomy,
  selected,
  onSelect,
  onClear,
}: {
  camera: CameraRow | undefined;
  /** Whether the cell is large enough for a line of text. */
  roomy: boolean;
  selected: boolean;
  onSelect: () => void;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  return (
    <AspectRatio ratio={16 / 9}>
      <Box
        onClick={(event) => {
          // Not the player's own buttons, nor its dialogs (portals, whose clicks still reach the cell).
          const target = event.target as HTMLElement;
          if (!event.currentTarget.contains(target) || target.closest('button, a')) return;
          onSelect();
        }}
        pos="relative"
        bg="dark.8"
        style={{ cursor: 'pointer', borderRadius: 4, overflow: 'hidden' }}
        data-testid="video-cell"
        data-selected={selected || undefined}
        data-camera={camera?.id}
      >
        {camera ? (
          <LivePlayer
            // A new camera in the cell is a new player (the old one stops).
            key={camera.id}
            camera={camera}
            status={<OnlineBadge networkStatus={camera.networkStatus} />}
            onClose={onClear}
          />
        ) : (
          <Center h="100%" p="sm" title={t('video:wall.emptyCell')}>
            {/* Small cells (9 or 16, or a phone) show the camera sign alone. */}
            {roomy ? (
              <Text size="sm" c="dimmed" ta="center" lineClamp={3}>
                {t('video:wall.emptyCell')}
              </Text>
            ) : (
              <IconVideo size={24} color="var(--mantine-color-dark-3)" />
            )}
          </Center>
        )}
        {/* The cell's frame, over its picture: highlighted while the cell is chosen. */}
        <Box
          pos="absolute"
          top={0}
          left={0}
          right={0}
          bottom={0}
          style={{
            pointerEvents: 'none',
            borderRadius: 4,
            border: selected ? '2px solid var(--mantine-primary-color-filled)' : '1px solid var(--mantine-color-dark-4)',
          }}
        />
      </Box>
    </AspectRatio>
  );
}

/**
 * /realVideo/video: the live wall. The cameras by region on the left (online state live); 1, 4, 9 or 16 pictures (the
 * choice kept in this browser). A camera clicked goes to the chosen cell, else the next empty one; a cell closed, a
 * smaller grid or leaving the page stops its player, so the server stops streams nobody watches.
 */
export function VideoWallPage() {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const cameras = useEveryCamera();
  useLiveCameras();
  const [wall, setWall] = useState<WallState>(() => emptyWall(storedGridSize()));
  const list = useMemo(() => cameras.data?.list ?? [], [cameras.data]);
  const byId = useMemo(() => new Map(list.map((camera) => [camera.id, camera])), [list]);
  const shown = useMemo(() => new Set(wall.cells.filter((id): id is number => id !== null)), [wall.cells]);
  const size = wall.cells.length as VideoGridSize;

  const changeSize = (next: VideoGridSize) => {
    storeGridSize(next);
    setWall((current) => resizeWall(current, next));
  };

  return (
    <PagePanel
      title={t('common:route.video')}
      actions={
        <SegmentedControl
          value={String(size)}
          onChange={(value) => changeSize(Number(value) as VideoGridSize)}
          data={VIDEO_GRID_SIZES.map((n) => ({ value: String(n), label: String(n) }))}
          aria-label={t('video:wall.grid')}
          data-testid="video-grid-size"
        />
      }
    >
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 3 }}>
          <CameraList
            cameras={list}
            loading={cameras.isLoading}
            shown={shown}
            onPick={(camera) => setWall((current) => placeCamera(current, camera.id))}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>
          <SimpleGrid cols={gridColumns(size)} spacing={4} data-testid="video-wall" data-size={size}>
            {wall.cells.map((id, index) => (
              <WallCell
                key={index}
                // A camera deleted meanwhile leaves its cell empty.
                camera={id === null ? undefined : byId.get(id)}
                roomy={size <= 4 && !mobile}
                selected={wall.selected === index}
                onSelect={() => setWall((current) => selectCell(current, index))}
                onClear={() => setWall((current) => clearCell(current, index))}
              />
            ))}
          </SimpleGrid>
        </Grid.Col>
      </Grid>
    </PagePanel>
  );
}
