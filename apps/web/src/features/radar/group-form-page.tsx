import { useState } from 'react';
import { Anchor, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { Link, getRouteApi, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { RADAR_NAME_MAX, type RadarGroupDetail, type RadarLampOption } from '@sc/contracts';
import { FormActions, saveAndClose } from '@/components/form-actions';
import { PagePanel } from '@/components/page-panel';
import { SearchPickSelect, usePickSearch, type PickedItem } from '@/components/search-pick-select';
import { useRadarGroup, useRadarLampOptions, useRadarPage, useSaveRadarGroup } from './api';

const editRoute = getRouteApi('/_auth/_shell/radarManage/radarEditGroup');

const picked = (items: readonly RadarLampOption[]): PickedItem[] => items.map((i) => ({ id: i.id, label: `${i.name} (${i.code})` }));

/** The radars of the group, searched by name or code among the radars. */
function RadarPicker({ value, onChange, error }: { value: PickedItem[]; onChange: (next: PickedItem[]) => void; error?: string }) {
  const { t } = useTranslation();
  const { search, setSearch, query } = usePickSearch();
  const radars = useRadarPage({ pageNum: 1, pageSize: 50, radarName: query });
  const found = (radars.data?.list ?? []).map((r) => ({ id: r.id, label: `${r.radarName} (${r.code})` }));
  return (
    <SearchPickSelect
      label={t('radar:fields.radars')}
      placeholder={t('radar:groups.searchRadars')}
      value={value}
      onChange={onChange}
      found={found}
      search={search}
      onSearchChange={setSearch}
      error={error}
      data-testid="radar-group-radars-pick"
    />
  );
}

/** The lamps its strategy raises, searched by name or code among the lamps. */
function LampPicker({ value, onChange, error }: { value: PickedItem[]; onChange: (next: PickedItem[]) => void; error?: string }) {
  const { t } = useTranslation();
  const { search, setSearch, query } = usePickSearch();
  const lamps = useRadarLampOptions(query);
  return (
    <SearchPickSelect
      label={t('radar:fields.lamps')}
      placeholder={t('radar:groups.searchLamps')}
      value={value}
      onChange={onChange}
      found={picked(lamps.data ?? [])}
      search={search}
      onSearchChange={setSearch}
      error={error}
      data-testid="radar-group-lamps-pick"
    />
  );
}

/** A group's name, remark, radars and lamps; saved whole, back to the list. Refusals stand under their fields. */
function GroupForm({ group }: { group: RadarGroupDetail | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const save = useSaveRadarGroup();
  const [name, setName] = useState(group?.name ?? '');
  const [remark, setRemark] = useState(group?.remark ?? '');
  const [radars, setRadars] = useState<PickedItem[]>(picked(group?.radars ?? []));
  const [lamps, setLamps] = useState<PickedItem[]>(picked(group?.lamps ?? []));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const back = () => void navigate({ to: '/radarManage/radarGroupManagement' });
  const submit = () => {
    if (!name.trim()) return setErrors({ name: t('messages:enterGroupName') });
    void saveAndClose(
      () =>
        save.mutateAsync({
          ...(group ? { id: group.id } : {}),
          name: name.trim(),
          remark: remark.trim(),
          radarIds: radars.map((r) => r.id),
          lampIds: lamps.map((l) => l.id),
        }),
      { updated: Boolean(group), close: back, setErrors },
    );
  };
  return (
    <Stack data-testid="radar-group-form">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={t('radar:fields.groupName')}
          required
          maxLength={RADAR_NAME_MAX}
          name="name"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.name}
        />
        <TextInput
          label={t('radar:fields.remark')}
          maxLength={255}
          name="remark"
          value={remark}
          onChange={(e) => setRemark(e.currentTarget.value)}
          error={errors.remark}
        />
      </SimpleGrid>
      <RadarPicker value={radars} onChange={setRadars} error={errors.radarIds} />
      <LampPicker value={lamps} onChange={setLamps} error={errors.lampIds} />
      <FormActions onCancel={back} onConfirm={submit} loading={save.isPending} testId="radar-group-form-save" />
    </Stack>
  );
}

function BackToGroups() {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to="/radarManage/radarGroupManagement" size="sm">
      {t('radar:groups.back')}
    </Anchor>
  );
}

/** /radarManage/radarCreateGroup (hidden): a new group. */
export function RadarGroupCreatePage() {
  const { t } = useTranslation();
  return (
    <PagePanel title={t('common:route.radarCreateGroup')} actions={<BackToGroups />}>
      <GroupForm group={null} />
    </PagePanel>
  );
}

/** /radarManage/radarEditGroup?id= (hidden): the group as loaded, changed and saved whole. */
export function RadarGroupEditPage() {
  const { t } = useTranslation();
  const { id } = editRoute.useSearch();
  const group = useRadarGroup(id ?? 0);
  return (
    <PagePanel title={t('common:route.radarEditGroup')} actions={<BackToGroups />}>
      {group.data ? (
        <GroupForm key={group.data.id} group={group.data} />
      ) : (
        <Text c="dimmed" data-testid="radar-group-edit-state">
          {group.isError || !id ? t('radar:groups.notFound') : t('common:feedback.loading')}
        </Text>
      )}
    </PagePanel>
  );
}
