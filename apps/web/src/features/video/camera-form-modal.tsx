import { useEffect } from 'react';
import { Checkbox, Modal, PasswordInput, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import {
  CAMERA_BOUNDS,
  CAMERA_HOST_PATTERN,
  CAMERA_NAME_MAX,
  CAMERA_PASSWORD_MAX,
  CAMERA_USERNAME_MAX,
  NUMBER_BOUNDS,
  RTSP_URL_MAX,
  RTSP_URL_PATTERN,
  VIDEO_CATEGORY_LIST,
  VIDEO_VENDORS,
  VideoVendor,
  type CameraAddOrEditRequest,
  type CameraRow,
} from '@sc/contracts';
import { useSession } from '@/auth/session-store';
import { AreaCascader } from '@/components/area-cascader';
import { BoundedNumberInput, coordinateOf, numberFieldError, positionErrors } from '@/components/bounded-number-input';
import { FormActions, saveAndClose } from '@/components/form-actions';
import { Select } from '@/components/select';
import { PoleField } from '@/features/poles/pole-field';
import { useIsMobile } from '@/layout/use-is-mobile';
import { canOpen } from '@/navigation/permitted-routes';
import { ROUTE_TABLE } from '@/navigation/route-table';
import { deviceCodeError } from '@/utils/device-code';
import { useSaveCamera } from './api';
import { categoryOf, usualRtspAddress, vendorLabel } from './categories';

/** The device code's longest (an MQTT client id, as every family's). */
const CODE_MAX = 64;
/** The address field's longest (a host name). */
const HOST_MAX = 255;

interface Values {
  name: string;
  code: string;
  vendor: VideoVendor | null;
  category: number | null;
  subType: number | null;
  ip: string;
  rtspPort: number | string;
  channel: number | string;
  rtspUrl: string;
  username: string;
  password: string;
  /** Edit: send '' (the stored password goes) instead of keeping it. */
  removePassword: boolean;
  latitude: number | string;
  longitude: number | string;
  regionId: number | null;
  poleId: number | null;
}

const valuesOf = (camera: CameraRow | null): Values => ({
  name: camera?.name ?? '',
  code: camera?.code ?? '',
  vendor: camera?.vendor ?? VideoVendor.Dahua,
  category: camera?.category ?? null,
  subType: camera?.subType ?? null,
  ip: camera?.ip ?? '',
  rtspPort: camera?.rtspPort ?? 554,
  channel: camera?.channel ?? 1,
  rtspUrl: camera?.rtspUrl ?? '',
  username: camera?.username ?? '',
  password: '',
  removePassword: false,
  latitude: camera?.latitude ?? '',
  longitude: camera?.longitude ?? '',
  regionId: camera?.regionId ?? null,
  poleId: camera?.poleId ?? null,
});

/**
 * The password as the request sends it: a new one typed sets it; on an edit, empty keeps the stored one (absent) unless
 * "remove" is ticked ('').
 */
function passwordOf(values: Pick<Values, 'password' | 'removePassword'>, editing: boolean): string | undefined {
  if (editing && values.removePassword) return '';
  return values.password === '' ? undefined : values.password;
}

/**
 * Add or edit video equipment: its name and code, vendor, category and sub-type, where its stream is (address, RTSP
 * port and channel, or an RTSP address of its own) and its login, region, pole and position. Checked here as the
 * server checks it; the server's refusals stand under their fields. The stored password is never shown.
 */
export function CameraFormModal({ camera, onClose }: { camera: CameraRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const save = useSaveCamera();
  const roles = useSession((s) => s.roles);
  const mayPickPole = canOpen(ROUTE_TABLE, '/lampPole/poleManage', roles);
  const form = useForm<Values>({
    initialValues: valuesOf(camera),
    validate: {
      name: (v) => (v.trim() ? null : t('messages:nameEmpty')),
      code: (v) => deviceCodeError(t, v) ?? null,
      vendor: (v) => (v === null ? t('messages:pleaseSelect') : null),
      category: (v) => (v === null ? t('messages:pleaseSelect') : null),
      subType: (v, all) => ((categoryOf(all.category)?.types.length ?? 0) > 0 && v === null ? t('messages:pleaseSelect') : null),
      ip: (v, all) => {
        const ip = v.trim();
        if (ip === '') return all.rtspUrl.trim() === '' ? t('video:form.addressEmpty') : null;
        return CAMERA_HOST_PATTERN.test(ip) ? null : t('video:form.hostInvalid');
      },
      rtspPort: (v) => numberFieldError(t, v, CAMERA_BOUNDS.rtspPort, true),
      channel: (v) => numberFieldError(t, v, CAMERA_BOUNDS.channel, true),
      rtspUrl: (v) => (v.trim() === '' || RTSP_URL_PATTERN.test(v.trim()) ? null : t('video:form.rtspUrlInvalid')),
      latitude: (v, all) => positionErrors(t, v, all.longitude).latitude,
      longitude: (v, all) => positionErrors(t, all.latitude, v).longitude,
    },
  });
  useEffect(() => {
    form.setValues(valuesOf(camera));
    form.resetDirty();
    form.clearErrors();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when its target changes
  }, [camera]);

  const subTypes = categoryOf(form.values.category)?.types ?? [];
  const categoryKey = categoryOf(form.values.category)?.key;

  const submit = form.onSubmit(async (values) => {
    const password = passwordOf(values, Boolean(camera));
    const body: CameraAddOrEditRequest = {
      ...(camera ? { id: camera.id } : {}),
      name: values.name.trim(),
      code: values.code.trim(),
      vendor: values.vendor!,
      category: values.category!,
      subType: subTypes.length > 0 ? values.subType : null,
      ip: values.ip.trim(),
      rtspPort: Number(values.rtspPort),
      channel: Number(values.channel),
      rtspUrl: values.rtspUrl.trim(),
      username: values.username.trim(),
      ...(password === undefined ? {} : { password }),
      latitude: coordinateOf(values.latitude),
      longitude: coordinateOf(values.longitude),
      regionId: values.regionId,
      ...(mayPickPole ? { poleId: values.poleId } : {}),
    };
    await saveAndClose(() => save.mutateAsync(body), { updated: Boolean(camera), close: onClose, setErrors: form.setErrors });
  });

  const usual = usualRtspAddress(form.values);
  return (
    <Modal opened onClose={onClose} title={t(`video:list.${camera ? 'edit' : 'add'}`)} size="xl" fullScreen={mobile}>
      <form onSubmit={submit} noValidate data-testid="video-form">
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('video:fields.name')} required maxLength={CAMERA_NAME_MAX} name="name" {...form.getInputProps('name')} />
            <TextInput label={t('video:fields.code')} required maxLength={CODE_MAX} name="code" {...form.getInputProps('code')} />
            <Select
              label={t('video:fields.vendor')}
              required
              data={VIDEO_VENDORS.map((vendor) => ({ value: String(vendor), label: vendorLabel(t, vendor) }))}
              value={form.values.vendor === null ? null : String(form.values.vendor)}
              onChange={(v) => form.setFieldValue('vendor', v === null ? null : (Number(v) as VideoVendor))}
              error={form.errors.vendor}
              allowDeselect={false}
              data-testid="video-form-vendor"
            />
            <Select
              label={t('video:fields.category')}
              required
              data={VIDEO_CATEGORY_LIST.map((c) => ({ value: String(c.code), label: t(`video:category.${c.key}`) }))}
              value={form.values.category === null ? null : String(form.values.category)}
              onChange={(v) => {
                const category = v === null ? null : Number(v);
                if (category === form.values.category) return;
                form.setFieldValue('category', category);
                // A sub-type belongs to its category: another category starts without one (or with its only one).
                const types = categoryOf(category)?.types ?? [];
                form.setFieldValue('subType', types.length === 1 ? types[0].code : null);
              }}
              error={form.errors.category}
              allowDeselect={false}
              data-testid="video-form-category"
            />
            {categoryKey && subTypes.length > 0 && (
              <Select
                label={t('video:fields.subType')}
                required
                data={subTypes.map((s) => ({ value: String(s.code), label: t(`video:subType.${categoryKey}.${s.key}`) }))}
                value={form.values.subType === null ? null : String(form.values.subType)}
                onChange={(v) => form.setFieldValue('subType', v === null ? null : Number(v))}
                error={form.errors.subType}
                allowDeselect={false}
                data-testid="video-form-subtype"
              />
            )}
            <TextInput label={t('video:fields.ip')} maxLength={HOST_MAX} name="ip" {...form.getInputProps('ip')} />
            <BoundedNumberInput
              label={t('video:fields.rtspPort')}
              required
              bounds={CAMERA_BOUNDS.rtspPort}
              allowDecimal={false}
              allowNegative={false}
              name="rtspPort"
              {...form.getInputProps('rtspPort')}
            />
            <BoundedNumberInput
              label={t('video:fields.channel')}
              required
              bounds={CAMERA_BOUNDS.channel}
              allowDecimal={false}
              allowNegative={false}
              name="channel"
              {...form.getInputProps('channel')}
            />
          </SimpleGrid>
          <TextInput
            label={t('video:fields.rtspUrl')}
            description={usual ? t('video:form.rtspUrlHint') : undefined}
            placeholder={usual ?? t('video:form.rtspUrlOther')}
            maxLength={RTSP_URL_MAX}
            name="rtspUrl"
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            {...form.getInputProps('rtspUrl')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('video:fields.username')}
              maxLength={CAMERA_USERNAME_MAX}
              autoComplete="off"
              name="username"
              {...form.getInputProps('username')}
            />
            <Stack gap={6}>
              <PasswordInput
                label={t('video:fields.password')}
                description={camera?.hasPassword ? t('video:form.passwordKeep') : undefined}
                maxLength={CAMERA_PASSWORD_MAX}
                autoComplete="new-password"
                name="password"
                disabled={form.values.removePassword}
                {...form.getInputProps('password')}
              />
              {camera?.hasPassword && (
                <Checkbox
                  label={t('video:form.removePassword')}
                  name="removePassword"
                  {...form.getInputProps('removePassword', { type: 'checkbox' })}
                  data-testid="video-form-remove-password"
                />
              )}
            </Stack>
            <AreaCascader label={t('video:fields.region')} value={form.values.regionId} onChange={(id) => form.setFieldValue('regionId', id)} />
            {mayPickPole && (
              <PoleField
                label={t('video:fields.pole')}
                placeholder={t('video:list.noPole')}
                value={form.values.poleId}
                current={camera}
                onChange={(id) => form.setFieldValue('poleId', id)}
                testId="video-form-pole"
              />
            )}
            <BoundedNumberInput
              label={t('video:fields.latitude')}
              bounds={NUMBER_BOUNDS.latitude}
              name="latitude"
              {...form.getInputProps('latitude')}
            />
            <BoundedNumberInput
              label={t('video:fields.longitude')}
              bounds={NUMBER_BOUNDS.longitude}
              name="longitude"
              {...form.getInputProps('longitude')}
            />
          </SimpleGrid>
          <FormActions onCancel={onClose} loading={save.isPending} testId="video-form-save" />
        </Stack>
      </form>
    </Modal>
  );
}
