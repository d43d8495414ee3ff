import { useEffect, useRef, useState } from 'react';
import { Box, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { adLayout, orientationAspect, zoneItemAt, type ScreenOrientation } from '@sc/contracts';

/** One material of a zone's list, as the canvas shows it. */
export interface CanvasItem {
  materialId: number;
  kind: 'image' | 'video';
  /** The file (a signed link). */
  src: string;
  /** A still of it (a video's cover), shown while the ad is not playing. */
  poster: string | null;
  name: string;
  seconds: number;
}

export interface AdCanvasProps {
  orientation: ScreenOrientation;
  splitCount: number;
  zones: readonly (readonly CanvasItem[])[];
  /** Playing: each zone shows what the ad plays at `second`; otherwise each shows its first item's still. */
  playing: boolean;
  second: number;
  /** The zone the editor is working on, outlined. */
  selectedZone?: number;
  onSelectZone?: (zone: number) => void;
  /** Height of the drawn screen in pixels (its width follows from the orientation). */
  height: number;
}

/**
 * A floor screen drawn at its orientation (9:16 or 16:9), split into its zones (adLayout, the layout the players use),
 * each showing its list: the first item's still while editing, or, while the ad plays, the item of that second
 * (zoneItemAt), as a player would.
 */
export function AdCanvas({ orientation, splitCount, zones, playing, second, selectedZone, onSelectZone, height }: AdCanvasProps) {
  const { t } = useTranslation();
  const width = Math.round(height * orientationAspect(orientation));
  const rects = adLayout(orientation, splitCount);
  return (
    <Box
      pos="relative"
      w={width}
      h={height}
      bg="dark.8"
      style={{ borderRadius: 6, overflow: 'hidden', flex: 'none' }}
      data-testid="ad-canvas"
      data-orientation={orientation}
      data-zones={rects.length}
    >
      {rects.map((rect, zone) => {
        const items = zones[zone] ?? [];
        const at = playing ? zoneItemAt(items, second) : items.length > 0 ? { index: 0, offset: 0 } : null;
        const item = at ? items[at.index] : undefined;
        return (
          <Box
            key={zone}
            pos="absolute"
            left={`${rect.x * 100}%`}
            top={`${rect.y * 100}%`}
            w={`${rect.w * 100}%`}
            h={`${rect.h * 100}%`}
            onClick={onSelectZone ? () => onSelectZone(zone) : undefined}
            style={{
              cursor: onSelectZone ? 'pointer' : undefined,
              outline: selectedZone === zone ? '2px solid var(--mantine-primary-color-filled)' : '1px solid rgba(255,255,255,0.25)',
              outlineOffset: -2,
              overflow: 'hidden',
            }}
            data-testid={`ad-zone-${zone}`}
            data-showing={item?.materialId ?? ''}
            data-kind={item ? (playing && item.kind === 'video' ? 'video' : 'image') : ''}
          >
            {item ? (
              <ZoneMedia item={item} playing={playing} offset={at!.offset} />
            ) : (
              <Text c="gray.5" size="xs" ta="center" pt="xs">
                {t('signageAds:zoneEmpty', { zone: zone + 1 })}
              </Text>
            )}
            <Text pos="absolute" top={2} left={4} size="xs" c="white" style={{ textShadow: '0 0 3px #000' }}>
              {zone + 1}
            </Text>
          </Box>
        );
      })}
    </Box>
  );
}

function ZoneMedia({ item, playing, offset }: { item: CanvasItem; playing: boolean; offset: number }) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  // A video joins the ad where the ad is in its turn (a player starts it at the top of its turn).
  useEffect(() => {
    const element = video.current;
    if (!element || !playing) return;
    if (Math.abs(element.currentTime - offset) > 1) element.currentTime = offset;
    void element.play().catch(() => undefined);
  }, [playing, offset, item.materialId]);
  const fill = { width: '100%', height: '100%', objectFit: 'cover' as const, display: 'block' };
  if (item.kind === 'image' || !playing || !item.src) {
    const src = item.kind === 'image' ? item.src || item.poster : item.poster;
    return src ? <img src={src} alt={item.name} style={fill} /> : <Text size="xs">{item.name}</Text>;
  }
  return (
    <video key={item.materialId} ref={video} src={item.src} muted playsInline style={fill}>
      {t('signageMaterials:noVideoSupport')}
    </video>
  );
}

/**
 * The second of the ad being played (from 0 each time it starts), ticking a few times a second while `playing`: enough
 * for a zone to change item on its second. At the total duration the ad is over, as on a player: `onEnd` is called.
 */
export function useAdSecond(totalDuration: number, playing: boolean, onEnd: () => void): number {
  const [second, setSecond] = useState(0);
  const end = useRef(onEnd);
  useEffect(() => {
    end.current = onEnd;
  });
  useEffect(() => {
    setSecond(0);
    if (!playing || totalDuration <= 0) return;
    const started = performance.now();
    const timer = window.setInterval(() => {
      const at = (performance.now() - started) / 1000;
      if (at >= totalDuration) {
        window.clearInterval(timer);
        end.current();
      } else setSecond(at);
    }, 200);
    return () => window.clearInterval(timer);
  }, [playing, totalDuration]);
  return second;
}
