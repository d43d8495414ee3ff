import { useEffect, useRef, useState } from 'react';
import {
  ActionIcon,
  Badge,
  Button,
  Center,
  Grid,
  Group,
  Image,
  Input,
  Loader,
  Modal,
  ScrollArea,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconMusic, IconPlayerPlay, IconPlayerStop, IconPlus, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  AD_IMAGE_SECONDS_DEFAULT,
  AD_ITEM_SECONDS,
  AD_MUSIC_TYPES,
  AD_NAME_MAX,
  AD_ZONE_TYPES,
  LIMITS,
  MaterialType,
  ScreenOrientation,
  adProblems,
  videoItemSeconds,
  type AdDetail,
  type AdMaterial,
  type AdRequest,
  type AdZoneItem,
} from '@sc/contracts';
import { fieldErrors } from '@/api/field-errors';
import { BoundedNumberInput } from '@/components/bounded-number-input';
import { FormActions } from '@/components/form-actions';
import { notifySuccess } from '@/components/notify';
import { formatDuration } from '@/features/signage-materials/format';
import { AdCanvas, useAdSecond, type CanvasItem } from './ad-canvas';
import { useAdDetail, useAvailableMaterials, useMaterialLinks, useSaveAd } from './api';
import { orientationKey } from './orientation';
import { moved } from '@/utils/moved';

type Errors = Record<string, string>;
type Picking = { kind: 'zone'; zone: number } | { kind: 'music' } | { kind: 'cover' } | null;

const SPLIT = { ...LIMITS.adSplitScreens, decimals: 0 };
const DURATION = { ...LIMITS.adDurationSeconds, decimals: 0 };
const ITEM = { ...AD_ITEM_SECONDS, decimals: 0 };

/** What a number input holds, as a number (NaN for text it cannot read): adProblems says what is wrong with it. */
const asNumber = (value: number | string): number => (typeof value === 'number' ? value : value.trim() === '' ? NaN : Number(value));
const splitShown = (value: number | string): number => Math.min(Math.max(Math.trunc(asNumber(value)) || 1, SPLIT.min), SPLIT.max);

/** The visual editor of an ad, new (`id` null) or saved: it opens once the ad and the materials to pick from are loaded. */
export function AdEditorModal({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const detail = useAdDetail(id);
  const available = useAvailableMaterials();
  const ready = (id === null || detail.data) && available.data;
  return (
    <Modal
      opened
      onClose={onClose}
      fullScreen
      title={id === null ? t('signageAds:addTitle') : t('signageAds:editTitle', { name: detail.data?.name ?? '' })}
    >
      {ready ? (
        <AdEditor ad={detail.data ?? null} available={available.data!.list} onClose={onClose} />
      ) : (
        <Center h={300}>
          <Loader />
        </Center>
      )}
    </Modal>
  );
}

function AdEditor({ ad, available, onClose }: { ad: AdDetail | null; available: AdMaterial[]; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveAd();
  const [name, setName] = useState(ad?.name ?? '');
  const [coverId, setCoverId] = useState<number | null>(ad?.coverMaterialId ?? null);
  const [orientation, setOrientation] = useState<ScreenOrientation>(ad?.orientation ?? ScreenOrientation.Portrait);
  const [splitCount, setSplitCount] = useState<number | string>(ad?.splitCount ?? 1);
  const [totalDuration, setTotalDuration] = useState<number | string>(ad?.totalDuration ?? 30);
  const [zones, setZones] = useState<AdZoneItem[][]>(ad?.zones ?? [[]]);
  const [music, setMusic] = useState<number[]>(ad?.music ?? []);
  const [auditRequired, setAuditRequired] = useState(ad?.auditRequired ?? false);
  const [zone, setZone] = useState(0);
  const [picking, setPicking] = useState<Picking>(null);
  const [playing, setPlaying] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const materials = new Map<number, AdMaterial>([...(ad?.materials ?? []), ...available].map((m) => [m.id, m]));

  const count = splitShown(splitCount);
  const shownZones = Array.from({ length: count }, (_, z) => zones[z] ?? []);
  const selected = Math.min(zone, count - 1);
  const total = asNumber(totalDuration);
  const second = useAdSecond(Number.isInteger(total) && total > 0 ? total : 0, playing, () => setPlaying(false));
  const ids = [...new Set([...shownZones.flat().map((item) => item.materialId), ...music])];
  const links = useMaterialLinks(ids, playing);
  const canvasZones: CanvasItem[][] = shownZones.map((list) =>
    list.flatMap((item) => {
      const m = materials.get(item.materialId);
      if (!m) return [];
      const kind = m.type === MaterialType.Video ? ('video' as const) : ('image' as const);
      return [{ materialId: m.id, kind, src: links.get(m.id) ?? '', poster: m.coverUrl, name: m.name, seconds: item.seconds }];
    }),
  );

  const setZoneList = (z: number, change: (list: AdZoneItem[]) => AdZoneItem[]) =>
    setZones(Array.from({ length: Math.max(count, zones.length) }, (_, i) => (i === z ? change(zones[i] ?? []) : (zones[i] ?? []))));
  const request = (): AdRequest => ({
    name,
    coverMaterialId: coverId,
    orientation,
    totalDuration: total,
    splitCount: asNumber(splitCount),
    zones: shownZones,
    music,
    auditRequired,
  });
  const submit = async () => {
    const body = request();
    const problems = adProblems(body);
    if (problems.length > 0) return setErrors(Object.fromEntries(problems.map((p) => [p.field, t(`messages:${p.key}`, p.params)])));
    setErrors({});
    try {
      await save.mutateAsync(ad ? { ...body, id: ad.id } : body);
      notifySuccess(t(ad ? 'common:feedback.updated' : 'common:feedback.created'));
      onClose();
    } catch (error) {
      setErrors(fieldErrors(error));
    }
  };
  const pick = (m: AdMaterial) => {
    if (picking?.kind === 'cover') {
      setCoverId(m.id);
      setPicking(null);
    } else if (picking?.kind === 'music') setMusic([...music, m.id]);
    else if (picking?.kind === 'zone')
      setZoneList(picking.zone, (list) => [
        ...list,
        { materialId: m.id, seconds: m.type === MaterialType.Video && m.duration ? videoItemSeconds(m.duration) : AD_IMAGE_SECONDS_DEFAULT },
      ]);
  };
  const zoneErrors = Object.entries(errors).filter(([field]) => field.startsWith('zones'));
  const cover = coverId === null ? undefined : materials.get(coverId);

  return (
    <form
      noValidate
      data-testid="ad-editor"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 3 }}>
          <Stack gap="sm">
            <TextInput
              label={t('signageAds:fields.name')}
              required
              maxLength={AD_NAME_MAX}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={errors.name}
              data-testid="ad-name"
            />
            <Input.Wrapper label={t('signageAds:fields.cover')} required error={errors.coverMaterialId}>
              <Group gap="xs" mt={4}>
                {cover?.coverUrl && (
                  <Image src={cover.coverUrl} alt={cover.name} w={48} h={48} fit="cover" radius="sm" data-testid="ad-cover-chosen" />
                )}
                <Button variant="default" size="xs" onClick={() => setPicking({ kind: 'cover' })} data-testid="ad-cover-pick">
                  {cover ? cover.name : t('signageAds:chooseCover')}
                </Button>
              </Group>
            </Input.Wrapper>
            <Input.Wrapper label={t('signageAds:fields.orientation')} error={errors.orientation}>
              <SegmentedControl
                fullWidth
                value={orientation}
                onChange={(value) => setOrientation(value as ScreenOrientation)}
                data={Object.values(ScreenOrientation).map((o) => ({ value: o, label: t(`signageAds:orientation.${orientationKey(o)}`) }))}
                data-testid="ad-orientation"
              />
            </Input.Wrapper>
            <BoundedNumberInput
              label={t('signageAds:fields.splitCount')}
              required
              bounds={SPLIT}
              allowDecimal={false}
              value={splitCount}
              onChange={setSplitCount}
              error={errors.splitCount ?? errors.zones}
              data-testid="ad-split"
            />
            <BoundedNumberInput
              label={t('signageAds:fields.totalDuration')}
              required
              bounds={DURATION}
              allowDecimal={false}
              value={totalDuration}
              onChange={setTotalDuration}
              error={errors.totalDuration}
              data-testid="ad-duration"
            />
            <Switch
              label={t('signageAds:fields.auditRequired')}
              checked={auditRequired}
              onChange={(e) => setAuditRequired(e.currentTarget.checked)}
              data-testid="ad-audit-required"
            />
            <MusicList
              music={music}
              materials={materials}
              error={errors.music ?? Object.entries(errors).find(([field]) => field.startsWith('music['))?.[1]}
              onAdd={() => setPicking({ kind: 'music' })}
              onRemove={(id) => setMusic(music.filter((m) => m !== id))}
            />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack align="center" gap="xs">
            <AdCanvas
              orientation={orientation}
              splitCount={count}
              zones={canvasZones}
              playing={playing}
              second={second}
              selectedZone={selected}
              onSelectZone={setZone}
              height={orientation === ScreenOrientation.Portrait ? 480 : 280}
            />
            <Group>
              {playing ? (
                <Button variant="default" leftSection={<IconPlayerStop size={16} />} onClick={() => setPlaying(false)} data-testid="ad-stop">
                  {t('signageAds:stop')}
                </Button>
              ) : (
                <Button
                  variant="light"
                  leftSection={<IconPlayerPlay size={16} />}
                  onClick={() => setPlaying(true)}
                  disabled={!(Number.isInteger(total) && total > 0)}
                  data-testid="ad-preview"
                >
                  {t('signageAds:preview')}
                </Button>
              )}
              <Text size="sm" data-testid="ad-second" data-playing={playing}>
                {t('signageAds:playingAt', { second: Math.floor(second), total: Number.isFinite(total) ? total : '—' })}
              </Text>
            </Group>
            {playing && <MusicPlayer urls={music.flatMap((id) => links.get(id) ?? [])} />}
            {zoneErrors.map(([field, message]) => (
              <Text key={field} size="sm" c="red" data-testid="ad-zone-error">
                {`${t('signageAds:zone', { zone: Number(/\d+/.exec(field)![0]) + 1 })}: ${message}`}
              </Text>
            ))}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Playlist
            zone={selected}
            list={shownZones[selected]}
            materials={materials}
            errors={errors}
            onAdd={() => setPicking({ kind: 'zone', zone: selected })}
            onChange={(change) => setZoneList(selected, change)}
          />
        </Grid.Col>
      </Grid>
      <Stack mt="lg">
        <FormActions onCancel={onClose} loading={save.isPending} testId="ad-save" />
      </Stack>
      {picking && (
        <MaterialPicker
          available={available}
          types={picking.kind === 'zone' ? AD_ZONE_TYPES : picking.kind === 'music' ? AD_MUSIC_TYPES : [MaterialType.Image]}
          taken={picking.kind === 'zone' ? shownZones[picking.zone].map((item) => item.materialId) : picking.kind === 'music' ? music : []}
          onPick={pick}
          onClose={() => setPicking(null)}
        />
      )}
    </form>
  );
}

function Thumb({ material }: { material: AdMaterial | undefined }) {
  if (material?.coverUrl) return <Image src={material.coverUrl} alt={material.name} w={40} h={40} fit="cover" radius="sm" />;
  return (
    <Center w={40} h={40} bg="var(--mantine-color-default-hover)" style={{ borderRadius: 4 }}>
      <IconMusic size={18} />
    </Center>
  );
}

/** The selected zone's list: each material with its seconds (a video at most its length), reordered or removed. */
function Playlist({
  zone,
  list,
  materials,
  errors,
  onAdd,
  onChange,
}: {
  zone: number;
  list: AdZoneItem[];
  materials: Map<number, AdMaterial>;
  errors: Errors;
  onAdd: () => void;
  onChange: (change: (list: AdZoneItem[]) => AdZoneItem[]) => void;
}) {
  const { t } = useTranslation();
  const move = (i: number, by: -1 | 1) => onChange((items) => moved(items, i, by));
  return (
    <Stack gap="xs" data-testid="ad-playlist" data-zone={zone}>
      <Group justify="space-between">
        <Text fw={600}>{t('signageAds:playlist', { zone: zone + 1 })}</Text>
        <Button size="xs" leftSection={<IconPlus size={14} />} onClick={onAdd} data-testid="ad-add-material">
          {t('signageAds:addMaterial')}
        </Button>
      </Group>
      {list.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('signageAds:zoneEmpty', { zone: zone + 1 })}
        </Text>
      )}
      {list.map((item, i) => {
        const m = materials.get(item.materialId);
        const isVideo = m?.type === MaterialType.Video;
        const max = isVideo && m.duration ? videoItemSeconds(m.duration) : ITEM.max;
        return (
          <Group key={item.materialId} gap="xs" wrap="nowrap" data-testid={`ad-item-${i}`} data-material={item.materialId}>
            <Thumb material={m} />
            <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
              <Text size="sm" truncate>
                {m?.name ?? item.materialId}
              </Text>
              <Text size="xs" c="dimmed">
                {isVideo ? t('signageAds:videoSeconds', { seconds: max }) : t('signageAds:type.image')}
              </Text>
            </Stack>
            <BoundedNumberInput
              aria-label={t('signageAds:seconds')}
              w={80}
              size="xs"
              bounds={{ ...ITEM, max }}
              allowDecimal={false}
              value={item.seconds}
              onChange={(value) => onChange((items) => items.map((x, j) => (j === i ? { ...x, seconds: asNumber(value) } : x)))}
              error={errors[`zones[${zone}][${i}].seconds`]}
              data-testid="ad-item-seconds"
            />
            <ActionIcon variant="subtle" disabled={i === 0} onClick={() => move(i, -1)} aria-label={t('signageAds:moveUp')}>
              <IconArrowUp size={16} />
            </ActionIcon>
            <ActionIcon variant="subtle" disabled={i === list.length - 1} onClick={() => move(i, 1)} aria-label={t('signageAds:moveDown')}>
              <IconArrowDown size={16} />
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="red"
              onClick={() => onChange((items) => items.filter((_, j) => j !== i))}
              aria-label={t('signageAds:remove')}
            >
              <IconX size={16} />
            </ActionIcon>
          </Group>
        );
      })}
    </Stack>
  );
}

function MusicList({
  music,
  materials,
  error,
  onAdd,
  onRemove,
}: {
  music: number[];
  materials: Map<number, AdMaterial>;
  error: string | undefined;
  onAdd: () => void;
  onRemove: (id: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <Input.Wrapper label={t('signageAds:fields.music')} error={error}>
      <Stack gap={4} mt={4} data-testid="ad-music-list">
        {music.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('signageAds:noMusic')}
          </Text>
        )}
        {music.map((id) => (
          <Group key={id} gap="xs" wrap="nowrap">
            <IconMusic size={16} />
            <Text size="sm" truncate style={{ flex: 1 }}>
              {materials.get(id)?.name ?? id}
            </Text>
            <ActionIcon variant="subtle" color="red" onClick={() => onRemove(id)} aria-label={t('signageAds:remove')}>
              <IconX size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Button size="xs" variant="default" leftSection={<IconPlus size={14} />} onClick={onAdd} data-testid="ad-add-music">
          {t('signageAds:addMusic')}
        </Button>
      </Stack>
    </Input.Wrapper>
  );
}

/** The background music of a preview: each in order, round again, until the preview stops. */
function MusicPlayer({ urls }: { urls: string[] }) {
  const { t } = useTranslation();
  const [index, setIndex] = useState(0);
  const audio = useRef<HTMLAudioElement>(null);
  const src = urls.length > 0 ? urls[index % urls.length] : undefined;
  useEffect(() => {
    if (src) void audio.current?.play().catch(() => undefined);
  }, [src, index]);
  if (!src) return null;
  return (
    <audio ref={audio} src={src} onEnded={() => setIndex((i) => i + 1)} data-testid="ad-music-player">
      {t('signageMaterials:noAudioSupport')}
    </audio>
  );
}

/**
 * The available materials of the types a place takes, with their covers. One already in the list is disabled, and
 * says so ('A material already in the playlist cannot be added twice').
 */
function MaterialPicker({
  available,
  types,
  taken,
  onPick,
  onClose,
}: {
  available: AdMaterial[];
  types: readonly MaterialType[];
  taken: number[];
  onPick: (m: AdMaterial) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const choices = available.filter((m) => types.includes(m.type));
  return (
    <Modal opened onClose={onClose} title={t('signageAds:pickerTitle')} size="lg" zIndex={300}>
      <ScrollArea.Autosize mah="60vh">
        <Stack gap="xs" data-testid="ad-picker">
          {choices.length === 0 && <Text c="dimmed">{t('signageAds:noMaterials')}</Text>}
          {choices.map((m) => {
            const already = taken.includes(m.id);
            return (
              <Group key={m.id} gap="sm" wrap="nowrap" data-testid={`ad-pick-${m.name}`}>
                <Thumb material={m} />
                <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
                  <Text size="sm" truncate>
                    {m.name}
                  </Text>
                  {already ? (
                    <Text size="xs" c="orange" data-testid="ad-pick-taken">
                      {t('signageAds:alreadyInList')}
                    </Text>
                  ) : (
                    <Text size="xs" c="dimmed">
                      {t(`signageMaterials:type.${m.type}`)}
                      {m.duration !== null ? ` · ${formatDuration(m.duration)}` : ''}
                    </Text>
                  )}
                </Stack>
                <Badge variant="light">{t(`signageMaterials:type.${m.type}`)}</Badge>
                <Button size="xs" disabled={already} onClick={() => onPick(m)} data-testid="ad-pick-add">
                  <IconPlus size={14} />
                </Button>
              </Group>
            );
          })}
        </Stack>
      </ScrollArea.Autosize>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose} data-testid="ad-pick-done">
          {t('common:actions.close')}
        </Button>
      </Group>
    </Modal>
  );
}
